// The board page: settings, one WebSocket to the server, and everything it draws.
import { drawBoard, drawPv } from "./board.js";
import { paramForm, specOf } from "./forms.js";
import { drawGraph } from "./graph.js";

const $ = (id) => document.getElementById(id);
const PERSON = "person";
let games = [], agents = [], meta = {};
let ws = null, state = null, search = null, hint = null;
let recordNames = null;  // the players of a game opened from the results (it replays as person vs person)
let compiling = null;  // {message, seconds, since}: the server compiles for a first use
let refusal = null;  // why the server refused this page's connection (kept on screen)
let keep = false;  // the next board keeps the message shown (it explains why this board)
let fallback = null;  // what to start when the board's first "new" is refused (a bad link)
const finals = new Map();  // position key -> the last finished search there (analysis stays)
const pending = [];

function send(msg) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(msg));
  else pending.push(msg);
}

function showMessage(text) {
  const box = $("message");
  box.textContent = text;
  box.hidden = !text;
  clearTimeout(showMessage.timer);
  if (text) showMessage.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

function connect() {
  ws = new WebSocket(`${location.protocol === "https:" ? "wss" : "ws"}://${location.host}/ws`);
  ws.onopen = () => { while (pending.length) ws.send(JSON.stringify(pending.shift())); };
  ws.onmessage = (e) => receive(JSON.parse(e.data));
  ws.onclose = () => {
    document.body.dataset.connection = "closed";
    showMessage(refusal || "Disconnected from the server: reload the page.");
    if (refusal) clearTimeout(showMessage.timer);  // the reason stays: nothing works without it
  };
}

function receive(msg) {
  if (msg.type === "state") {
    const changed = !state || state.ply !== msg.ply || state.game !== msg.game || state.moves.length !== msg.moves.length;
    state = msg;
    clockAt = performance.now();
    syncForm(msg);
    if (changed) {
      hint = null;
      search = finals.get(key(msg)) || null;
      if (keep) keep = false;  // the board under a message about a bad link
      else showMessage("");  // a move was played: an earlier error no longer applies
    }
    fallback = null;
    render();
  } else if (msg.type === "search") {
    if (!state || msg.ply > state.moves.length) return;
    if (msg.final) {
      finals.set(key(state, msg.ply), msg);
      if (finals.size > 2000) finals.delete(finals.keys().next().value);
    }
    if (msg.ply !== state.ply) return;  // a search of another position (the game analysis)
    search = msg;
    render();
  } else if (msg.type === "hint") {
    if (state && msg.ply === state.ply) { hint = msg.move; render(); showMessage(""); $("status").textContent = `Hint: ${msg.move}`; }
  } else if (msg.type === "export") {
    const blob = new Blob([msg.text], { type: msg.format === "json" ? "application/json" : "application/x-go-sgf" });
    const a = document.createElement("a");
    a.href = URL.createObjectURL(blob);
    a.download = msg.filename;
    document.body.appendChild(a);
    a.click();
    a.remove();
  } else if (msg.type === "status") {
    // A first use compiles the game's search: say so, with the seconds gone, until it plays.
    compiling = { message: msg.message, seconds: msg.seconds, since: performance.now() };
    render();
  } else if (msg.type === "error") {
    showMessage(msg.message);
    document.body.dataset.lastError = msg.message;
    if (msg.fatal) refusal = msg.message;
    if (msg.request === "new" && !state && fallback) {
      // A link whose game or moves were refused: show the error over a board that works.
      const next = fallback;
      fallback = next.then || null;
      keep = true;
      send(next.msg);
    }
  }
}

// The settings form follows the board (a game opened from a link, a record or the results).
function syncForm(msg) {
  if (document.activeElement && document.activeElement.closest("#setup")) return;
  const name = msg.game.split(":")[0];
  if ($("game-name").value !== name) { $("game-name").value = name; refreshForms(); }
  fillParams($("game-params"), msg.game);
  msg.players.forEach((spec, side) => {
    const agent = spec.split(":")[0];
    const select = $(`player${side}`);
    if ([...select.options].some((o) => o.value === agent)) {
      const box = $(`params${side}`);
      if (select.value !== agent) {
        select.value = agent;
        const info = agents.find((a) => a.name === agent);
        paramForm(box, info ? info.params : [], true);
      }
      fillParams(box, spec);
    }
  });
  $("time").value = msg.time;
  $("clock").value = msg.clockSpec || "";
}

// Put a spec's values ("name:k=v,...") into its parameter form (the rest back to defaults).
function fillParams(box, spec) {
  const values = {};
  const rest = spec.includes(":") ? spec.slice(spec.indexOf(":") + 1) : "";
  for (const item of rest.split(",")) {
    const [k, v] = item.split("=");
    if (k && v !== undefined) values[k.trim()] = v.trim();
  }
  for (const input of box.querySelectorAll("[data-param]")) {
    const value = values[input.dataset.param] ?? "";
    if (input.tagName === "SELECT" && ![...input.options].some((o) => o.value === value)) continue;
    input.value = value;
  }
}

function key(s, ply = s.ply) { return `${s.game}|${s.seed}|${s.moves.slice(0, ply).join(" ")}`; }

function agentOptions(select, withPerson) {
  select.innerHTML = "";
  if (withPerson) select.add(new Option("person", PERSON));
  for (const a of agents) select.add(new Option(a.name, a.name));
}

function agentSpec(side) {
  const name = $(`player${side}`).value;
  if (name === PERSON) return PERSON;
  const agent = agents.find((a) => a.name === name);
  return specOf(name, $(`params${side}`), agent.params);
}

function gameSpec() {
  const name = $("game-name").value;
  const game = games.find((g) => g.name === name);
  return specOf(name, $("game-params"), game.params);
}

// The forms of the game and of each seat; changing one seat's agent leaves the rest as set.
function refreshForms(sides = [0, 1], withGame = true) {
  if (withGame) {
    const game = games.find((g) => g.name === $("game-name").value);
    paramForm($("game-params"), game.params);
    $("name0").textContent = game.players[0];
    $("name1").textContent = game.players[1];
    // Only Colosseum draws its start at random (walls, players): its seed is a field of the form.
    $("seed-field").hidden = game.name !== "colosseum";
  }
  for (const side of sides) {
    const name = $(`player${side}`).value;
    const agent = agents.find((a) => a.name === name);
    paramForm($(`params${side}`), agent ? agent.params : [], true);
  }
}

// While the server compiles a game's search for its first use: what, and the seconds gone.
function compilingLine() {
  if (!compiling) { delete document.body.dataset.compiling; return; }
  const gone = Math.round((performance.now() - compiling.since) / 1000);
  $("status").textContent = `${compiling.message} ${gone} s of about ${compiling.seconds} s…`;
  document.body.dataset.compiling = "1";
}

function newGame(extra = {}) {
  search = null;
  compiling = null;
  recordNames = null;
  const clock = $("clock").value.trim();
  const seed = $("seed-field").hidden ? "" : $("seed").value.trim();
  if (seed && !/^\d{1,9}$/.test(seed)) { showMessage(`The seed is a whole number (not ${JSON.stringify(seed)}).`); return; }
  send({ type: "new", game: gameSpec(), players: [agentSpec(0), agentSpec(1)],
    time: parseFloat($("time").value), ...(clock ? { clock } : {}), ...(seed ? { seed: parseInt(seed, 10) } : {}),
    ...extra });
}

function clockText(seconds) {
  const s = Math.max(0, seconds);
  const m = Math.floor(s / 60);
  return `${m}:${(s - 60 * m).toFixed(1).padStart(4, "0")}`;
}

// The running clock counts down between the server's messages.
let clockAt = 0;
setInterval(() => {
  if (compiling) compilingLine();  // the seconds of the compilation go on
  if (!state || !state.clocks || state.clockRunning === null) return;
  const side = state.clockRunning;
  const left = state.clocks[side] - (performance.now() - clockAt) / 1000;
  const span = document.querySelector(`#players-bar [data-clock="${side}"]`);
  if (span) span.textContent = clockText(left);
}, 100);

function render() {
  if (!state) return;
  const view = state.view;
  const mover = state.players[view.toMove];
  const interactive = !view.terminal && (mover === PERSON || state.ply < state.moves.length || state.paused);
  const shown = search && search.ply === state.ply ? search : null;
  window.arenaView = view;  // the position drawn, for the browser tests and the console
  drawBoard($("board"), view, {
    interactive,
    search: shown,
    onMove: (text) => send({ type: "play", move: text }),
  });
  if (hint) {
    drawPv($("board"), view, [hint]);
  }
  document.body.dataset.thinking = state.thinking || "";
  document.body.dataset.ply = state.ply;
  // Players and counts.
  const bar = $("players-bar");
  bar.innerHTML = "";
  [0, 1].forEach((side) => {
    const span = document.createElement("span");
    const count = view.counts ? ` (${view.counts[side]})` : "";
    const who = state.players[side] === PERSON && recordNames ? recordNames[side] : state.players[side];
    span.textContent = `${view.names[side]}: ${who}${count}`;
    if (!view.terminal && view.toMove === side) span.className = "to-move";
    if (state.clocks) {
      const clock = document.createElement("span");
      clock.className = "clock" + (state.clockRunning === side ? " running" : "");
      clock.dataset.clock = side;
      clock.textContent = clockText(state.clocks[side]);
      span.append(" ", clock);
    }
    bar.appendChild(span);
  });
  $("pass").hidden = !view.pass || !interactive;
  $("status").textContent = state.thinking === "move" ? `${state.players[view.toMove]} is thinking…` : state.status;
  if (compiling && search) compiling = null;  // the search runs: compiled
  compilingLine();
  const result = $("result");
  result.hidden = !state.result;
  if (state.result) {
    const n = state.moves.length;
    result.textContent = `Result: ${state.result}, after ${n} move${n === 1 ? "" : "s"}`;
  }
  // Controls.
  $("first").disabled = $("back").disabled = state.ply === 0;
  $("last").disabled = $("forward").disabled = state.ply === state.moves.length;
  $("pause").textContent = state.paused ? "Resume" : "Pause";
  $("analyze").disabled = state.analyzing;
  $("stop").disabled = !state.thinking && !state.analyzing && !state.sweep;
  $("sweep").disabled = state.sweep > 0;
  $("delay").value = state.delay;
  $("delay-text").textContent = `${state.delay.toFixed(1)} s`;
  renderSearch(shown, view);
  renderMoves();
  drawGraph($("graph"), state, (ply) => send({ type: "goto", ply }));
  // A link that reproduces the game.
  const params = new URLSearchParams({ game: state.game });
  if (state.moves.length) params.set("moves", state.moves.join(" "));
  if (state.seed !== null) params.set("seed", state.seed);
  state.players.forEach((spec, side) => { if (spec !== PERSON) params.set(side ? "second" : "first", spec); });
  if (state.clockSpec) params.set("clock", state.clockSpec);
  else if (state.players.some((p) => p !== PERSON)) params.set("time", state.time);
  if (state.ply !== state.moves.length) params.set("ply", state.ply);
  history.replaceState(null, "", `/?${params}`);
}

function renderSearch(shown, view) {
  const head = $("search-head"), thead = $("search-table").tHead, body = $("search-table").tBodies[0];
  thead.innerHTML = ""; body.innerHTML = "";
  $("pv").textContent = ""; $("search-units").textContent = "";
  let before = false;
  const previous = state.ply > 0 ? finals.get(key(state, state.ply - 1)) : null;
  if (!shown && previous && previous.purpose === "move" && !state.thinking) {
    shown = previous;  // the search behind the move just played: why the agent chose it
    before = true;
  }
  const sweeping = state.sweep ? `Analysing the game: ${state.sweep} positions to go. ` : "";
  if (!shown) { head.textContent = sweeping + (state.thinking ? "Searching…" : "No search for this position."); return; }
  const info = shown.info;
  const rate = info.rate ? `${Math.round(info.rate).toLocaleString()}/s` : "";
  const what = { move: "playing", sweep: "game analysis" }[shown.purpose] || shown.purpose;
  const mcts = info.root.length && "visits" in info.root[0];
  head.textContent = sweeping + (before ? `Last move, ${state.moves[state.ply - 1]}: ` : "") +
    `${shown.agent} (${what}${shown.final ? ", done" : ", live"}): ` +
    `${info.nodes.toLocaleString()} ${mcts ? "simulations" : "nodes"} in ${info.seconds.toFixed(2)} s` +
    (rate ? ` (${rate})` : "") + (info.depth !== null ? `, depth ${info.depth}` : "");
  // The value column names its unit (discs, points) when every value has one.
  const unit = !mcts && info.root.length && info.root.every((r) => r.unit === info.root[0].unit) ? info.root[0].unit : "";
  // az's rows also carry the network's prior, the searched value and, with Gumbel, the
  // improved policy: what the network believed before the search and after it.
  const net = mcts ? ["prior", "policy", "value"].filter((k) => k in info.root[0]) : [];
  const cols = mcts
    ? ["move", "visits", "share", ...net, "win %", ...(net.length ? [] : ["proven"])]
    : ["move", unit ? `value (${unit})` : "value", "bound", "depth"];
  const tr = thead.insertRow();
  for (const c of cols) { const th = document.createElement("th"); th.textContent = c; tr.appendChild(th); }
  const total = mcts ? info.root.reduce((a, r) => a + r.visits, 0) || 1 : 1;
  for (const row of info.root.slice(0, 12)) {
    const r = body.insertRow();
    const cells = mcts
      ? [row.move, row.visits, `${(100 * row.visits / total).toFixed(1)}%`,
        ...net.map((k) => (row[k] === null ? "-" : row[k].toFixed(3))),
        row.win_rate === null ? "-" : (100 * row.win_rate).toFixed(1), ...(net.length ? [] : [row.proven || ""])]
      : [row.move, row.text, row.bound, row.depth];
    for (const v of cells) r.insertCell().textContent = v;
    if (row.pv && !before) {
      r.addEventListener("mouseenter", () => drawPv($("board"), view, row.pv));
      r.addEventListener("mouseleave", () => drawPv($("board"), view, null));
    }
  }
  const best = info.root.find((r) => r.pv);
  const mover = view.names && shown.side !== undefined && shown.side !== null ? ` (${view.names[shown.side]})` : "";
  const note = (net.length ? info.units : mcts ? "win %: the player to move's share of wins in the simulations through the move" : info.units || "")
    .replace("the player to move", `the player to move${mover}`);
  const bounds = !mcts && info.root.some((r) => r.bound && r.bound !== "=") ? " <= and >=: bounds from alpha-beta's cut-offs (at most / at least)." : "";
  $("search-units").textContent = note + (note && bounds ? "." : "") + bounds;
  if (best) $("pv").textContent = `Principal variation: ${best.pv.join(" ")} (hover the best move to see it)`;
}

function renderMoves() {
  const list = $("moves");
  list.innerHTML = "";
  for (let i = 0; i < state.moves.length; i += 2) {
    const li = document.createElement("li");
    for (const j of [i, i + 1]) {
      if (j >= state.moves.length) break;
      const span = document.createElement("span");
      span.textContent = state.moves[j];
      span.dataset.ply = j + 1;
      if (j + 1 === state.ply) span.className = "current";
      else if (j + 1 > state.ply) span.className = "future";
      span.addEventListener("click", () => send({ type: "goto", ply: j + 1 }));
      li.appendChild(span);
    }
    list.appendChild(li);
  }
  // Other lines: what a branch or a take-back replaced, one click away.
  const lines = $("lines");
  lines.innerHTML = "";
  if (state.lines.length) lines.append("Other lines:");
  for (const line of state.lines) {
    const button = document.createElement("button");
    const number = Math.floor(line.fork / 2) + 1;
    button.textContent = `at move ${number}${line.fork % 2 ? "…" : "."} ${line.moves.join(" ")}${line.more ? ` (+${line.more})` : ""}`;
    button.dataset.line = line.index;
    button.addEventListener("click", () => send({ type: "line", index: line.index }));
    lines.appendChild(button);
  }
  const current = list.querySelector(".current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

function wire() {
  $("setup").addEventListener("submit", (e) => { e.preventDefault(); newGame(); });
  $("game-name").addEventListener("change", () => refreshForms([], true));
  for (const side of [0, 1]) $(`player${side}`).addEventListener("change", () => refreshForms([side], false));
  $("analysis-agent").addEventListener("change", () => {
    const agent = agents.find((a) => a.name === $("analysis-agent").value);
    paramForm($("analysis-params"), agent.params, true);
  });
  $("first").onclick = () => send({ type: "goto", ply: 0 });
  $("back").onclick = () => state && send({ type: "goto", ply: Math.max(0, state.ply - 1) });
  $("forward").onclick = () => state && send({ type: "goto", ply: Math.min(state.moves.length, state.ply + 1) });
  $("last").onclick = () => state && send({ type: "goto", ply: state.moves.length });
  $("undo").onclick = () => send({ type: "undo" });
  $("hint").onclick = () => send({ type: "hint", agent: analysisSpec() });
  $("pause").onclick = () => send({ type: state && state.paused ? "resume" : "pause" });
  $("step").onclick = () => send({ type: "step" });
  $("delay").oninput = () => send({ type: "speed", delay: parseFloat($("delay").value) });
  $("analyze").onclick = () => send({ type: "analyze", agent: analysisSpec() });
  $("sweep").onclick = () => send({ type: "sweep", agent: analysisSpec(), time: 0.5 });
  $("stop").onclick = () => send({ type: "stop" });
  $("pass").onclick = () => state && send({ type: "play", move: state.view.pass });
  $("save-json").onclick = () => send({ type: "export", format: "json" });
  $("save-sgf").onclick = () => send({ type: "export", format: "sgf" });
  $("copy-link").onclick = () => { navigator.clipboard?.writeText(location.href); showMessage("Link copied: " + location.href); };
  $("open-file").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    if (file.size > meta.maxUpload) { showMessage(`File too large (at most ${meta.maxUpload / 1024} KB).`); return; }
    send({ type: "load", text: await file.text() });
    e.target.value = "";
  });
  // Keys as on Lichess's analysis board and KaTrain: ← → a move, Home/End (and ↑ ↓) the
  // first and last position.
  const keys = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", ArrowUp: "first",
    End: "last", ArrowDown: "last" };
  document.addEventListener("keydown", (e) => {
    if (["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName) || !state) return;
    if (e.ctrlKey || e.altKey || e.metaKey || !keys[e.key]) return;
    e.preventDefault();  // not the page's scroll
    $(keys[e.key]).click();
  });
}

function analysisSpec() {
  const name = $("analysis-agent").value;
  const agent = agents.find((a) => a.name === name);
  return specOf(name, $("analysis-params"), agent.params);
}

async function start() {
  [games, meta] = await Promise.all([
    fetch("/api/games").then((r) => r.json()).then((j) => j.games),
    fetch("/api/agents").then((r) => r.json()),
  ]);
  agents = meta.agents;
  for (const g of games) $("game-name").add(new Option(g.name, g.name));
  agentOptions($("player0"), true);
  agentOptions($("player1"), true);
  agentOptions($("analysis-agent"), false);
  $("player1").value = "mcts";
  $("analysis-agent").value = "mcts";
  $("results-link").hidden = !meta.results;
  const url = new URLSearchParams(location.search);
  let urlGame = url.get("game");
  if (urlGame && !games.some((g) => g.name === urlGame.split(":")[0])) {
    showMessage(`No game ${JSON.stringify(urlGame.split(":")[0])} in this link; games: ` +
      `${games.map((g) => g.name).join(", ")}. Showing Connect Four.`);
    urlGame = null;
    keep = true;
  }
  $("game-name").value = urlGame ? urlGame.split(":")[0] : "connect4";
  refreshForms();
  paramForm($("analysis-params"), agents.find((a) => a.name === "mcts").params, true);
  wire();
  connect();
  if (url.get("record")) {
    const record = await fetch(`/api/results/${encodeURIComponent(url.get("record"))}`).then((r) => r.json());
    if (record.error) { showMessage(record.error); return; }
    $("game-name").value = record.game.split(":")[0];
    refreshForms();
    recordNames = record.players;
    send({ type: "new", game: record.game, seed: record.seed, moves: record.moves, players: [PERSON, PERSON] });
  } else if (urlGame) {
    const players = [url.get("first") || PERSON, url.get("second") || PERSON];
    const msg = { type: "new", game: urlGame, moves: url.get("moves") || "", players };
    // Refused (a bad move, parameter or agent in the link): the same game without the moves,
    // then the default game, so that a board is always drawn under the message.
    fallback = { msg: { type: "new", game: urlGame, players: [PERSON, PERSON] },
      then: { msg: { type: "new", game: "connect4", players: [PERSON, "mcts"] } } };
    if (url.get("seed")) msg.seed = parseInt(url.get("seed"), 10);
    if (url.get("time")) msg.time = parseFloat(url.get("time"));
    if (url.get("clock")) msg.clock = url.get("clock").replace(/ /g, "+");  // a bare + reads as a space
    send(msg);
    if (url.get("ply")) send({ type: "goto", ply: parseInt(url.get("ply"), 10) });
  } else {
    newGame();
  }
}

start();
