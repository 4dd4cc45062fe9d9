// The results page: the tournament in the server's --db, its standings and its games.
const $ = (id) => document.getElementById(id);

function table(id, head, rows) {
  const t = $(id);
  t.tHead.innerHTML = "";
  t.tBodies[0].innerHTML = "";
  const tr = t.tHead.insertRow();
  for (const h of head) { const th = document.createElement("th"); th.textContent = h; tr.appendChild(th); }
  for (const row of rows) {
    const r = t.tBodies[0].insertRow();
    for (const v of row) {
      const cell = r.insertCell();
      if (v instanceof Node) cell.appendChild(v); else cell.textContent = v ?? "";
    }
  }
}

function elo(line) {
  if (line.elo === undefined || line.elo === null) return ["", ""];
  const [lo, hi] = line.elo_95 || [null, null];
  return [String(line.elo), lo === null ? "" : `${lo} .. ${hi}`];
}

const POLL = Math.max(0.2, Number(new URLSearchParams(location.search).get("poll")) || 3) * 1000;
// The results so far: the page asks again every POLL ms and redraws when games were added,
// so a tournament or a league being played shows live.
let shown = null;

function player() { return new URLSearchParams(location.search).get("player"); }

function choose(name) {
  const query = new URLSearchParams(location.search);
  if (name === null) query.delete("player"); else query.set("player", name);
  const text = query.toString();
  history.replaceState(null, "", `${location.pathname}${text ? "?" + text : ""}`);
  if (shown) draw(shown);
}

function nameLink(name, reference = false) {
  const a = document.createElement("a");
  a.href = `?player=${encodeURIComponent(name)}`;
  a.textContent = reference ? `${name} (reference)` : name;
  a.className = "player";
  a.title = `show only the games of ${name}`;
  a.addEventListener("click", (event) => { event.preventDefault(); choose(name); });
  return a;
}

function forfeits(line) {
  return Object.entries(line.forfeits || {}).map(([k, v]) => `${k} ${v}`).join(", ");
}

function draw(data) {
  const s = data.settings;
  $("title").textContent = `${s.game || "?"}: ${data.name}`;
  $("summary").textContent = `${data.games.length} games; agents: ${(s.agents || []).join(", ")}` +
    (s.control ? `; clock ${s.control}` : "") + (s.rounds ? `; ${s.rounds} rounds` : "") +
    (data.standings.elo_method ? `. ${data.standings.elo_method}.` : ".");
  // A league's submissions that did not play, with the reason (never left out silently).
  const refused = Object.entries((s.league || {}).refused || {});
  $("refused").textContent = refused.length
    ? `Did not play: ${refused.map(([name, why]) => `${name} (${why})`).join("; ")}.` : "";
  const references = new Set((s.league || {}).references || []);
  const lines = Object.entries(data.standings.agents).sort((a, b) =>
    (b[1].elo ?? -Infinity) - (a[1].elo ?? -Infinity) || b[1].points - a[1].points);
  table("standings", ["#", "agent", "games", "wins", "draws", "losses", "points", "score", "Elo", "95% interval", "forfeits"],
    lines.map(([name, l], i) => [i + 1, nameLink(name, references.has(name)), l.wins + l.draws + l.losses, l.wins, l.draws, l.losses, l.points,
      `${(100 * l.score).toFixed(1)}%`, ...elo(l), forfeits(l)]));
  const names = lines.map(([n]) => n);
  const h2h = data.standings.head_to_head;
  table("h2h", ["", ...names], names.map((a) => [a, ...names.map((b) => {
    const cell = (h2h[a] || {})[b];
    return a === b || !cell ? "" : `${cell.points}/${cell.games}`;
  })]));
  const only = player();
  const games = data.games.map((g, i) => [g, i + 1]).filter(([g]) => only === null || g.first === only || g.second === only);
  $("games-title").textContent = only === null ? "Games" : `Games of ${only}`;
  $("all-games").hidden = only === null;
  table("games", ["#", "round", "first", "second", "result", "reason", "plies", ""], games.map(([g, n]) => {
    const link = document.createElement("a");
    link.href = `/?record=${encodeURIComponent(g.game_id)}`;
    link.textContent = "open";
    link.className = "open-game";
    link.title = `open game ${n} on the board`;
    const reason = document.createElement("span");
    reason.textContent = g.loser === null || g.loser === undefined || g.reason === "normal"
      ? g.reason : `${g.reason} (${g.loser === 0 ? g.first : g.second})`;
    if (g.detail) reason.title = g.detail;
    return [n, g.round, g.first, g.second, g.result === 1 ? "1-0" : g.result === 0 ? "0-1" : "½-½", reason, g.plies, link];
  }));
  // Long agent names: the head-to-head columns are numbered, the rows carry the names.
  const h2hHead = $("h2h").tHead.rows[0];
  names.forEach((name, i) => { const th = h2hHead.cells[i + 1]; th.textContent = `${i + 1}`; th.title = name; });
  [...$("h2h").tBodies[0].rows].forEach((row, i) => { row.cells[0].textContent = `${i + 1}. ${names[i]}`; });
  document.body.dataset.games = String(data.games.length);
}

async function refresh() {
  try {
    const since = shown ? `?since=${shown.count}` : "";
    const data = await fetch(`/api/results${since}`).then((r) => r.json());
    if (data.error) { $("title").textContent = data.error; return; }
    if (!data.unchanged) { shown = data; draw(data); }
    $("updated").textContent = `${data.count} games stored; checked at ${new Date().toLocaleTimeString()}`;
  } catch (err) {
    $("updated").textContent = `the server did not answer (${err.message}); trying again`;
  } finally {
    setTimeout(refresh, POLL);
  }
}

$("all-games").addEventListener("click", (event) => { event.preventDefault(); choose(null); });
refresh();
