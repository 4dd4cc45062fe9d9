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

async function start() {
  const data = await fetch("/api/results").then((r) => r.json());
  if (data.error) { $("title").textContent = data.error; return; }
  const s = data.settings;
  $("title").textContent = `${s.game || "?"}: ${data.name}`;
  $("summary").textContent = `${data.games.length} games; agents: ${(s.agents || []).join(", ")}` +
    (s.time ? `; time ${s.time}` : "") + (s.rounds ? `; ${s.rounds} rounds` : "") +
    (data.standings.elo_method ? `. ${data.standings.elo_method}.` : ".");
  const lines = Object.entries(data.standings.agents).sort((a, b) => b[1].points - a[1].points || b[1].score - a[1].score);
  table("standings", ["#", "agent", "games", "wins", "draws", "losses", "points", "score", "Elo", "95% interval"],
    lines.map(([name, l], i) => [i + 1, name, l.wins + l.draws + l.losses, l.wins, l.draws, l.losses, l.points,
      `${(100 * l.score).toFixed(1)}%`, ...elo(l)]));
  const names = lines.map(([n]) => n);
  const h2h = data.standings.head_to_head;
  table("h2h", ["", ...names], names.map((a) => [a, ...names.map((b) => {
    const cell = (h2h[a] || {})[b];
    return a === b || !cell ? "" : `${cell.points}/${cell.games}`;
  })]));
  table("games", ["#", "round", "first", "second", "result", "reason", "plies", ""], data.games.map((g, i) => {
    const link = document.createElement("a");
    link.href = `/?record=${encodeURIComponent(g.game_id)}`;
    link.textContent = "open";
    link.className = "open-game";
    link.title = `open game ${i + 1} on the board`;
    return [i + 1, g.round, g.first, g.second, g.result === 1 ? "1-0" : g.result === 0 ? "0-1" : "½-½", g.reason, g.plies, link];
  }));
  // Long agent names: the head-to-head columns are numbered, the rows carry the names.
  const h2hHead = $("h2h").tHead.rows[0];
  names.forEach((name, i) => { const th = h2hHead.cells[i + 1]; th.textContent = `${i + 1}`; th.title = name; });
  [...$("h2h").tBodies[0].rows].forEach((row, i) => { row.cells[0].textContent = `${i + 1}. ${names[i]}`; });
}

start();
