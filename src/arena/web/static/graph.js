// The evaluation graph: the first player's winning chance after each position that
// was searched (by an agent playing or by the analysis), clickable to jump there.
const NS = "http://www.w3.org/2000/svg";
const H = 90, P = 6;

function el(name, attrs, parent) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  parent.appendChild(node);
  return node;
}

export function drawGraph(svg, state, onPick) {
  svg.innerHTML = "";
  const W = Math.max(120, Math.round(svg.clientWidth || 300));  // drawn at its real width
  svg.setAttribute("viewBox", `0 0 ${W} ${H}`);
  const n = Math.max(1, state.moves.length);
  const x = (ply) => P + (W - 2 * P) * ply / n;
  const y = (p) => P + (H - 2 * P) * (1 - p);
  el("line", { x1: P, y1: y(0.5), x2: W - P, y2: y(0.5), class: "graph-mid" }, svg);
  const points = state.evals.map((p, ply) => (p === null ? null : [x(ply), y(p)])).filter(Boolean);
  if (points.length) {
    const line = points.map((pt) => pt.join(",")).join(" ");
    el("polygon", { points: `${points[0][0]},${y(0.5)} ${line} ${points[points.length - 1][0]},${y(0.5)}`, class: "graph-area" }, svg);
    el("polyline", { points: line, class: "graph-line" }, svg);
  }
  el("line", { x1: x(state.ply), y1: 0, x2: x(state.ply), y2: H, class: "graph-now" }, svg);
  const label = el("text", { x: P + 2, y: 12, "font-size": 10, fill: "#777" }, svg);
  label.textContent = `${state.view.names[0]} win chance`;
  svg.onclick = (e) => {
    const box = svg.getBoundingClientRect();
    const ply = Math.round(((e.clientX - box.left) / box.width * W - P) / (W - 2 * P) * n);
    onPick(Math.max(0, Math.min(state.moves.length, ply)));
  };
}
