// The board as SVG, for the four kinds of view the server sends (see arena/web/view.py):
// "grid" (cells), "go" (intersections), "columns" (Connect Four), "colosseum" (walls).
// drawBoard(svg, view, options) redraws everything; options:
//   onMove(text)   a click that names a move (legal or not: the server judges and explains)
//   search         the latest search message for this position (overlay), or null
//   interactive    whether clicks play

const NS = "http://www.w3.org/2000/svg";
const S = 48;   // cell size in SVG units
const M = 30;   // margin for coordinates

function el(name, attrs = {}, parent = null, text = null) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text !== null) node.textContent = text;
  if (parent) parent.appendChild(node);
  return node;
}

// Centre of cell (r, c): for "go" boards the intersection.
function centre(view, r, c) {
  return [M + c * S + S / 2, M + r * S + S / 2];
}

export function cellOfText(view, text, heights) {
  // The cell a move names (also for moves deeper in a PV): [r, c] or null. In a PV a
  // column's second stone lands above its first: columns are counted before the legal cells.
  if (view.kind === "columns" && heights) {
    const c = parseInt(text, 10) - 1;
    if (!(c >= 0 && c < view.cols)) return null;
    const h = heights[c]++;
    return h < view.rows ? [view.rows - 1 - h, c] : null;
  }
  if (view.cells[text]) return view.cells[text];
  if (view.kind === "colosseum") {
    const m = /^(\d+),(\d+),([urdl])$/.exec(text);
    return m ? [+m[1], +m[2]] : null;
  }
  if (view.kind === "columns") {
    const c = parseInt(text, 10) - 1;
    if (!(c >= 0 && c < view.cols)) return null;
    if (heights) {
      const h = heights[c]++;
      return h < view.rows ? [view.rows - 1 - h, c] : null;
    }
    return null;
  }
  const t = text.trim();
  const col = view.colLabels.findIndex((l) => l.toLowerCase() === t[0]?.toLowerCase());
  const row = view.rowLabels.indexOf(t.slice(1));
  return col >= 0 && row >= 0 ? [row, col] : null;
}

export function textOfCell(view, r, c) {
  if (view.kind === "columns") return view.colLabels[c];
  return view.colLabels[c] + view.rowLabels[r];
}

function stone(g, view, r, c, who, extra = {}) {
  const [x, y] = centre(view, r, c);
  const cls = view.style.stones[who];
  const rad = view.kind === "go" ? S * 0.46 : S * 0.4;
  if (cls === "x") {
    const d = S * 0.26;
    const grp = el("g", { class: "stone-x " + (extra.class || "") }, g);
    el("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d }, grp);
    el("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d }, grp);
    return grp;
  }
  if (cls === "o") return el("circle", { cx: x, cy: y, r: S * 0.28, class: "stone-o " + (extra.class || "") }, g);
  const circle = el("circle", { cx: x, cy: y, r: rad, class: `stone-${cls} ` + (extra.class || "") }, g);
  if (view.kind === "colosseum") el("text", { x, y, class: "player-letter" }, g, view.names[who]);
  return circle;
}

function background(svg, view) {
  const w = view.cols * S, h = view.rows * S;
  const style = view.style.board;
  if (view.kind === "go") {
    el("rect", { x: M - 6, y: M - 6, width: w + 12, height: h + 12, rx: 4, class: "board-wood" }, svg);
    for (let i = 0; i < view.rows; i++) {
      const [x1, y] = centre(view, i, 0), [x2] = centre(view, i, view.cols - 1);
      el("line", { x1, y1: y, x2, y2: y, class: "gridline" }, svg);
    }
    for (let j = 0; j < view.cols; j++) {
      const [x, y1] = centre(view, 0, j), [, y2] = centre(view, view.rows - 1, j);
      el("line", { x1: x, y1, x2: x, y2, class: "gridline" }, svg);
    }
    for (const [r, c] of view.stars || []) {
      const [x, y] = centre(view, r, c);
      el("circle", { cx: x, cy: y, r: 4, class: "star" }, svg);
    }
  } else if (view.kind === "columns") {
    el("rect", { x: M - 6, y: M - 6, width: w + 12, height: h + 12, rx: 10, class: "board-blue" }, svg);
    for (let r = 0; r < view.rows; r++)
      for (let c = 0; c < view.cols; c++) {
        const [x, y] = centre(view, r, c);
        el("circle", { cx: x, cy: y, r: S * 0.4, class: "hole" }, svg);
      }
  } else {
    const cls = style === "green" ? "board-green" : view.kind === "colosseum" ? "board-stone" : "cell-light";
    el("rect", { x: M, y: M, width: w, height: h, class: cls }, svg);
    for (let r = 0; r < view.rows; r++)
      for (let c = 0; c < view.cols; c++)
        el("rect", { x: M + c * S, y: M + r * S, width: S, height: S, fill: "none",
          class: style === "green" ? "gridline-green" : view.kind === "colosseum" ? "gridline" : "cell-light" }, svg);
  }
  // Coordinates on all four sides.
  for (let c = 0; c < view.cols; c++) {
    const [x] = centre(view, 0, c);
    el("text", { x, y: M / 2 - 2, class: "coord" }, svg, view.colLabels[c]);
    el("text", { x, y: M + h + M / 2 + 2, class: "coord" }, svg, view.colLabels[c]);
  }
  for (let r = 0; r < view.rows; r++) {
    const [, y] = centre(view, r, 0);
    el("text", { x: M / 2 - 2, y, class: "coord" }, svg, view.rowLabels[r]);
    el("text", { x: M + w + M / 2 + 2, y, class: "coord" }, svg, view.rowLabels[r]);
  }
}

function walls(svg, view) {
  for (const [r, c, side] of view.walls || []) {
    const x0 = M + c * S, y0 = M + r * S;
    const seg = { u: [x0, y0, x0 + S, y0], d: [x0, y0 + S, x0 + S, y0 + S],
      l: [x0, y0, x0, y0 + S], r: [x0 + S, y0, x0 + S, y0 + S] }[side];
    el("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], class: "wall" }, svg);
  }
}

// Colour from red (0) through yellow to green (1).
function rateColour(rate) {
  const hue = Math.round(120 * Math.max(0, Math.min(1, rate)));
  return `hsl(${hue}, 75%, 55%)`;
}

function overlay(svg, view, search) {
  if (!search) return;
  const rows = search.info.root || [];
  if (!rows.length) return;
  const mcts = "visits" in rows[0];
  const total = mcts ? rows.reduce((a, r) => a + r.visits, 0) || 1 : 1;
  // Colosseum: several moves share a destination; show the destination's best.
  const seen = new Set();
  rows.forEach((row, i) => {
    const cell = view.cells[row.move];
    if (!cell) return;
    const key = cell.join(",");
    let share = mcts ? row.visits / total : null;
    if (view.kind === "colosseum") {
      if (seen.has(key)) return;
      seen.add(key);
      if (mcts) share = rows.filter((o) => (view.cells[o.move] || []).join(",") === key)
        .reduce((a, o) => a + o.visits, 0) / total;
    }
    if (mcts && row.visits === 0) return;
    // Big boards: the leading moves and any with a real share, not a carpet of 1% labels.
    if (i >= 10 && (!mcts || share < 0.05)) return;
    const [x, y] = centre(view, cell[0], cell[1]);
    const g = el("g", { class: "stat", "data-move": row.move }, svg);
    let fill, label1, label2;
    if (mcts) {
      const rate = row.win_rate ?? 0.5;
      fill = row.proven === "win" ? "hsl(200,80%,55%)" : row.proven === "loss" ? "#888" : rateColour(rate);
      label1 = `${Math.round(share * 100)}%`;
      label2 = row.proven ? row.proven : (rate * 100).toFixed(0);
    } else {
      fill = i === 0 ? "hsl(200,80%,60%)" : "#ffffffcc";
      // The number on top, its unit (discs) or the depth below, after a bound from pruning.
      label1 = row.text ?? String(row.value);
      if (row.unit && label1.endsWith(` ${row.unit}`)) label1 = label1.slice(0, -row.unit.length - 1);
      const bound = row.bound && row.bound !== "=" ? row.bound : "";
      label2 = row.unit ? bound + row.unit : bound || `d${row.depth}`;
    }
    const rad = mcts ? S * (0.3 + 0.14 * Math.sqrt(share)) : S * 0.42;
    el("circle", { cx: x, cy: y, r: rad, fill, class: "stat-bg" + (i === 0 ? " stat-best" : ""), opacity: 0.85 }, g);
    el("text", { x, y: y - 7, class: "stat-text" }, g, label1.length > 9 ? label1.slice(0, 9) : label1);
    el("text", { x, y: y + 8, class: "stat-text" }, g, label2);
  });
}

// The search's best move and its runner-up, marked as Lichess draws its engine arrows and
// KaTrain its top moves: a ring on the cell (solid: best, dashed: second), a marker over
// Connect Four's column, an arrow from Colosseum's piece to where it walks, with its wall.
// A second move is marked only where its value is exact (not a bound from pruning).
function bestMarks(svg, view, search) {
  const rows = (search && search.info.root) || [];
  if (!rows.length) return;
  const mcts = "visits" in rows[0];
  const real = (row) => (mcts ? row.visits > 0 : !row.bound || row.bound === "=");
  const marks = [rows[0], ...rows.slice(1).filter(real).slice(0, 1)].filter((row) => view.cells[row.move]);
  if (!marks.length) return;
  const g = el("g", { class: "best-marks" }, svg);
  if (view.kind === "colosseum") {
    const defs = el("defs", {}, g);
    const head = el("marker", { id: "best-head", viewBox: "0 0 10 10", refX: 6, refY: 5,
      markerWidth: 4, markerHeight: 4, orient: "auto-start-reverse" }, defs);
    el("path", { d: "M0,0 L10,5 L0,10 z", class: "best-head" }, head);
  }
  marks.forEach((row, i) => {
    const rank = i + 1;
    const [r, c] = view.cells[row.move];
    const cls = `best-mark best-${rank}`;
    const title = `${rank === 1 ? "best" : "second"}: ${row.move}`;
    if (view.kind === "columns") {
      // Over the column, in the margin: a marker with the column's number.
      const [x] = centre(view, 0, c);
      const mark = el("g", { class: cls, "data-move": row.move }, g);
      el("title", {}, mark, title);
      el("path", { d: `M${x - 13},${1} h26 v12 l-13,${M - 16} l-13,${-(M - 16)} z`, class: "best-flag" }, mark);
      el("text", { x, y: 8, class: "best-num" }, mark, view.colLabels[c]);
      return;
    }
    const [x, y] = centre(view, r, c);
    if (view.kind === "colosseum") {
      const mover = view.stones.find((s) => s[2] === view.toMove);
      const mark = el("g", { class: cls, "data-move": row.move }, g);
      el("title", {}, mark, title);
      if (mover && (mover[0] !== r || mover[1] !== c)) {
        const [x0, y0] = centre(view, mover[0], mover[1]);
        // From the piece's edge to the edge of the destination's statistics, not over them.
        const len = Math.hypot(x - x0, y - y0), from = S * 0.4, to = Math.min(S * 0.5, len / 2);
        el("line", { x1: x0 + ((x - x0) * from) / len, y1: y0 + ((y - y0) * from) / len,
          x2: x - ((x - x0) * to) / len, y2: y - ((y - y0) * to) / len, "marker-end": "url(#best-head)",
          class: "best-arrow" }, mark);
      }
      const side = row.move.split(",")[2];
      const x1 = M + c * S, y1 = M + r * S;
      const seg = { u: [x1, y1, x1 + S, y1], d: [x1, y1 + S, x1 + S, y1 + S],
        l: [x1, y1, x1, y1 + S], r: [x1 + S, y1, x1 + S, y1 + S] }[side];
      if (seg) el("line", { x1: seg[0], y1: seg[1], x2: seg[2], y2: seg[3], class: "best-wall" }, mark);
      return;
    }
    const ring = el("circle", { cx: x, cy: y, r: S * 0.47, class: cls, "data-move": row.move }, g);
    el("title", {}, ring, title);
  });
}

export function drawPv(svg, view, pv) {
  svg.querySelectorAll(".pv").forEach((n) => n.remove());
  svg.classList.toggle("showing-pv", !!pv);  // the statistics step aside for the numbered stones
  if (!pv) return;
  const heights = view.kind === "columns" ? columnHeights(view) : null;
  const g = el("g", { class: "pv" }, svg);
  pv.forEach((text, i) => {
    const cell = cellOfText(view, text, heights);
    if (!cell) return;
    const who = (view.toMove + i) % 2;
    if (view.kind === "colosseum") {
      const [x, y] = centre(view, cell[0], cell[1]);
      el("circle", { cx: x, cy: y, r: S * 0.3, class: `stone-${view.style.stones[who]} ghost` }, g);
    } else {
      stone(g, view, cell[0], cell[1], who, { class: "ghost" });
    }
    const [x, y] = centre(view, cell[0], cell[1]);
    const dark = ["black", "red", "a", "b"].includes(view.style.stones[who]);
    el("text", { x, y, class: "ghost-num", fill: dark ? "#fff" : "#000" }, g, String(i + 1));
  });
}

function columnHeights(view) {
  const heights = new Array(view.cols).fill(0);
  for (const [r, c] of view.stones) heights[c] = Math.max(heights[c], view.rows - r);
  return heights;
}

export function drawBoard(svg, view, opts) {
  const { onMove, search, interactive } = opts;
  svg.innerHTML = "";
  svg.setAttribute("viewBox", `0 0 ${view.cols * S + 2 * M} ${view.rows * S + 2 * M}`);
  svg.dataset.game = view.game;
  svg.dataset.kind = view.kind;
  background(svg, view);
  if (view.kind === "colosseum") {
    // Reachable cells: where the player to move may walk.
    for (const key of Object.keys(view.sides || {})) {
      const [r, c] = key.split(",").map(Number);
      el("rect", { x: M + c * S + 2, y: M + r * S + 2, width: S - 4, height: S - 4, class: "reach" }, svg);
    }
    walls(svg, view);
  }
  for (const [r, c, who] of view.stones) stone(svg, view, r, c, who);
  for (const [r, c] of view.win || []) {
    const [x, y] = centre(view, r, c);
    el("circle", { cx: x, cy: y, r: S * 0.42, class: "win-mark" }, svg);
  }
  if (view.last) {
    const [x, y] = centre(view, view.last[0], view.last[1]);
    if (view.kind === "colosseum" || view.game === "tictactoe") {
      el("rect", { x: x - S / 2 + 3, y: y - S / 2 + 3, width: S - 6, height: S - 6, class: "last-mark" }, svg);
    } else {
      el("circle", { cx: x, cy: y, r: S * 0.12, class: "last-mark" }, svg);
    }
  }
  if (view.game === "othello" && interactive && !search) {
    for (const [r, c] of Object.values(view.cells)) {
      const [x, y] = centre(view, r, c);
      el("circle", { cx: x, cy: y, r: S * 0.1, class: "legal-dot" }, svg);
    }
  }
  overlay(svg, view, search);
  bestMarks(svg, view, search);
  // Click targets on top of everything; the best move's shows the PV while hovered.
  const layer = el("g", { class: "clicks" }, svg);
  const best = search ? (search.info.root || [])[0] : null;
  const bestCell = best && best.pv && view.cells[best.move] ? view.cells[best.move].join(",") : null;
  // The hovered cell is remembered on the svg: a redraw (every live update) keeps the PV.
  const hover = (target, r, c) => {
    const cell = `${r},${c}`;
    target.addEventListener("mouseenter", () => {
      svg.dataset.hover = cell;
      if (bestCell === cell) drawPv(svg, view, best.pv);
    });
    target.addEventListener("mouseleave", () => {
      if (svg.dataset.hover === cell) delete svg.dataset.hover;
      drawPv(svg, view, null);
    });
  };
  if (view.kind === "columns") {
    for (let c = 0; c < view.cols; c++) {
      const t = el("rect", { x: M + c * S, y: M, width: S, height: view.rows * S, class: "click",
        "data-move": view.colLabels[c] }, layer);
      t.addEventListener("click", () => interactive && onMove(view.colLabels[c]));
      // A column is hovered as a whole: it stands for the cell a stone would land on.
      const landing = view.cells[view.colLabels[c]];
      if (landing) hover(t, ...landing);
    }
  } else if (view.kind === "colosseum") {
    for (let r = 0; r < view.rows; r++)
      for (let c = 0; c < view.cols; c++) {
        const t = el("rect", { x: M + c * S, y: M + r * S, width: S, height: S, class: "click",
          "data-cell": `${r},${c}` }, layer);
        t.addEventListener("click", () => interactive && pickColosseum(svg, view, r, c, onMove));
        hover(t, r, c);
      }
  } else {
    for (let r = 0; r < view.rows; r++)
      for (let c = 0; c < view.cols; c++) {
        const [x, y] = centre(view, r, c);
        const text = textOfCell(view, r, c);
        const t = el("rect", { x: x - S / 2, y: y - S / 2, width: S, height: S, class: "click",
          "data-move": text }, layer);
        t.addEventListener("click", () => interactive && onMove(text));
        hover(t, r, c);
      }
  }
  if (bestCell && svg.dataset.hover === bestCell) drawPv(svg, view, best.pv);
}

// Colosseum: the first click picks the destination, the second a side for the wall.
function pickColosseum(svg, view, r, c, onMove) {
  svg.querySelectorAll(".pick").forEach((n) => n.remove());
  const sides = (view.sides || {})[`${r},${c}`];
  if (!sides) {
    onMove(`${r},${c},u`);  // not reachable: the server says why
    return;
  }
  if (sides.length === 1) {
    onMove(`${r},${c},${sides[0]}`);
    return;
  }
  const g = el("g", { class: "pick" }, svg);
  el("rect", { x: M + c * S + 2, y: M + r * S + 2, width: S - 4, height: S - 4, class: "chosen" }, g);
  // A bar along each side a wall may go on: click one.
  const x0 = M + c * S, y0 = M + r * S, t = 10, k = 4;
  const bars = { u: [x0 + k, y0 + k, S - 2 * k, t], d: [x0 + k, y0 + S - k - t, S - 2 * k, t],
    l: [x0 + k, y0 + k, t, S - 2 * k], r: [x0 + S - k - t, y0 + k, t, S - 2 * k] };
  for (const side of sides) {
    const [x, y, width, height] = bars[side];
    const bar = el("rect", { x, y, width, height, rx: 3, class: "side-pick", "data-side": side }, g);
    bar.addEventListener("click", (e) => { e.stopPropagation(); onMove(`${r},${c},${side}`); });
  }
}
