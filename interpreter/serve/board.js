// The drawing of a frame (serve/frames.py), shared by the served page and the HTML replay: boards as SVG
// (squares, hexagons, graphs), piles as pieces, the players panel, the legend, the log and the narration.
// Each page defines `frame` (the frame shown) and `answer(index)`.
const $ = id => document.getElementById(id);
function el(tag, attrs, text) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}
function svgEl(tag, attrs) {
  const e = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  return e;
}
function pieceText(p) {
  if (typeof p !== "object") return String(p);
  const d = frame.pieces[p.id];
  return d ? d.label : p.kind;
}
function symbols(parent, here, x, y, width) {
  // the terminal's symbols of a cell's pieces, each in its colour (the legend tells them apart without colour)
  const t = svgEl("text", {x, y, "text-anchor": "middle", class: "sym"});
  if (!Array.isArray(here)) { t.textContent = here === 1 ? "?" : `${here}?`; parent.appendChild(t); return; }
  let chars = 0;
  for (const p of here) {
    const d = frame.pieces[p.id] || {sym: "?", color: null};
    const s = svgEl("tspan", d.color ? {fill: d.color} : {});
    s.textContent = d.sym; t.appendChild(s); chars += [...d.sym].length;
  }
  if (chars * 10 > width) { t.setAttribute("textLength", width); t.setAttribute("lengthAdjust", "spacingAndGlyphs"); }
  parent.appendChild(t);
}
function offeredCells() {
  const offered = {};
  if (frame.decision) for (const o of frame.decision.options) offered[o.label] = o.index;
  return offered;
}
function cellShape(svg, shape, label, here, offered, cx, cy, width) {
  // one cell (a square, a hexagon or a node), clickable when the decision offers it, titled with its pieces
  shape.setAttribute("class", "cell"); shape.setAttribute("data-cell", label);
  const tip = svgEl("title");
  tip.textContent = label + (here === undefined ? ": empty" : ": " + (Array.isArray(here) ? here.map(pieceText).join("; ") : `${here} hidden`));
  if (label in offered) {
    shape.classList.add("offered");
    shape.addEventListener("click", () => answer(offered[label]));
    tip.textContent = "choose " + tip.textContent;
  }
  shape.appendChild(tip); svg.appendChild(shape);
  if (here !== undefined) symbols(svg, here, cx, cy + 5, width);
}
function drawBoard(name, cells) {
  const lay = frame.layout[name], offered = offeredCells(), geo = lay.geometry;
  // cells as wide as their longest row of symbols (the spec's cell_width bounds it), at least 44 px
  let most = 1;
  for (const here of Object.values(cells))
    if (Array.isArray(here)) most = Math.max(most, here.reduce((n, p) => n + [...((frame.pieces[p.id] || {}).sym || "?")].length, 0));
  const S = Math.max(44, Math.min(most, 9) * 10 + 8), R = Math.max(25, S * 0.6), pts = [];
  for (const [label, x, y] of lay.cells) {
    if (geo === "hex") pts.push([label, Math.sqrt(3) * R * (x - y / 2), -1.5 * R * y]);
    else if (geo === "graph") pts.push([label, x * Math.max(120, 2 * S), -y * Math.max(120, 2 * S)]);
    else pts.push([label, x * S, -y * S]);
  }
  const pad = geo === "hex" ? R : geo === "graph" ? 40 : S / 2;
  const xs = pts.map(p => p[1]), ys = pts.map(p => p[2]);
  const x0 = Math.min(...xs) - pad, y0 = Math.min(...ys) - pad;
  const w = Math.max(...xs) + pad - x0, h = Math.max(...ys) + pad - y0;
  const svg = svgEl("svg", {viewBox: `${x0} ${y0} ${w} ${h}`, width: "100%", style: `max-width:${w * 1.6}px`,
                            role: "img", "aria-label": `${name} (${geo})`, "data-geometry": geo});
  const at = Object.fromEntries(pts.map(p => [p[0], p]));
  if (geo === "graph") {
    const defs = svgEl("defs"), m = svgEl("marker", {id: `arrow-${name}`, viewBox: "0 0 10 10", refX: 10, refY: 5,
                                                     markerWidth: 6, markerHeight: 6, orient: "auto"});
    m.appendChild(svgEl("path", {d: "M0,0 L10,5 L0,10 z", fill: "#666"})); defs.appendChild(m); svg.appendChild(defs);
    for (const [a, b, directed] of lay.edges) {
      const [, ax, ay] = at[a], [, bx, by] = at[b], len = Math.hypot(bx - ax, by - ay) || 1;
      const k = 24 / len;  // stop at the nodes' rims
      const line = svgEl("line", {x1: ax + (bx - ax) * k, y1: ay + (by - ay) * k, x2: bx - (bx - ax) * k,
                                  y2: by - (by - ay) * k, class: "edge"});
      if (directed) line.setAttribute("marker-end", `url(#arrow-${name})`);
      svg.appendChild(line);
    }
  }
  for (const [label, cx, cy] of pts) {
    let shape;
    if (geo === "hex") {
      const corners = [0, 1, 2, 3, 4, 5].map(i => {
        const a = Math.PI / 180 * (60 * i - 30);
        return `${cx + (R - 1) * Math.cos(a)},${cy + (R - 1) * Math.sin(a)}`;
      });
      shape = svgEl("polygon", {points: corners.join(" ")});
    } else if (geo === "graph") shape = svgEl("circle", {cx, cy, r: 24});
    else shape = svgEl("rect", {x: cx - S / 2 + 1, y: cy - S / 2 + 1, width: S - 2, height: S - 2});
    cellShape(svg, shape, label, cells[label], offered, cx, cy, geo === "graph" ? 44 : geo === "hex" ? 2 * R - 8 : S - 6);
    const lab = svgEl("text", {x: cx, y: cy - (geo === "square" ? S / 2 - 9 : 12), class: "label", "text-anchor": "middle"});
    lab.textContent = label; svg.appendChild(lab);
  }
  return svg;
}
function chip(p, compact) {
  // a piece outside the boards: its symbol (coloured) and its label; in the players panel its symbol alone
  const d = frame.pieces[p.id];
  const c = el("span", {class: compact && d && d.symbolic ? "sym-chip" : "piece", title: d ? d.label : p.kind});
  if (d && d.symbolic) {
    const s = el("b", d.color ? {style: `color:${d.color}`} : {}, d.sym);
    c.appendChild(s);
    if (compact) return c;
    c.appendChild(document.createTextNode(" "));
  }
  c.appendChild(document.createTextNode(d ? d.label : p.kind));
  return c;
}
function value(v) {
  if (v && typeof v === "object" && v.piece !== undefined) return frame.pieces[v.piece] ? frame.pieces[v.piece].label : "a piece";
  if (v && typeof v === "object" && v.player !== undefined) return frame.seats[v.player].name;
  if (Array.isArray(v)) return v.map(value).join(", ");
  return typeof v === "string" ? v : JSON.stringify(v);
}
function players() {
  // the players panel: ▶ to act, ★ winner, the spec's columns (a zone's pieces when the seat sees them, else its count)
  const f = frame, t = el("table", {id: "players-table"}), head = el("tr");
  for (const h of ["", "player"].concat(f.panels.columns.map(c => c[1]))) head.appendChild(el("th", {}, h));
  t.appendChild(head);
  f.view.players.forEach((p, i) => {
    const row = el("tr");
    const mark = f.over ? (f.over.winners.includes(f.seats[i].name) ? "★" : "") : (f.seats[i].name === f.waiting_for ? "▶" : "");
    row.appendChild(el("td", {}, mark));
    row.appendChild(el("td", {}, f.seats[i].name + (i === f.seat ? " (you)" : "") + (f.seats[i].kind !== "human" ? ` (${f.seats[i].kind})` : "")));
    for (const [col] of f.panels.columns) {
      const td = el("td"), zone = f.view.zones[`${col}[${i}]`];
      if (zone && zone.pieces) { zone.pieces.forEach(pc => td.appendChild(chip(pc, true))); if (!zone.pieces.length) td.textContent = "0"; }
      else if (zone) td.textContent = zone.count !== undefined ? `${zone.count}` : "?";
      else td.textContent = p[col] === undefined ? "?" : value(p[col]);
      row.appendChild(td);
    }
    t.appendChild(row);
  });
  $("players").replaceChildren(t);
}
let legendShown = null;  // the legend drawn last (the same for most frames: not drawn again)
function legend() {
  const key = JSON.stringify(frame.legend);
  if (key === legendShown) return;
  legendShown = key;
  const box = $("legend"); box.replaceChildren();
  for (const [sym, color, meaning] of frame.legend) {
    const li = el("li");
    if (sym) { li.appendChild(el("b", color ? {style: `color:${color}`} : {}, sym)); li.appendChild(document.createTextNode(" ")); }
    li.appendChild(document.createTextNode(meaning));
    box.appendChild(li);
  }
}
function drawState() {
  const f = frame;
  const board = $("board"); board.replaceChildren();
  const zones = f.panels.zones, shownInPanel = new Set(f.panels.columns.map(c => c[0]));
  const boards = zones.filter(([k]) => f.view.zones[k].cells !== undefined);
  const others = zones.filter(([k]) => f.view.zones[k].cells === undefined && !shownInPanel.has(k.replace(/\[\d+\]$/, "")));
  for (const [key, title] of boards.concat(others)) {
    const zone = f.view.zones[key], base = key.replace(/\[[^\]]*\]$/, "");
    const box = el("div", {class: "zone", "data-zone": key});
    box.appendChild(el("h3", {}, `${title} (${zone.type}${zone.count !== undefined ? ", " + zone.count : ""})`));
    if (zone.cells !== undefined && f.layout[base]) box.appendChild(drawBoard(base, zone.cells));
    else if (zone.pieces) {
      for (const p of zone.pieces) box.appendChild(chip(p));
      if (!zone.pieces.length) box.appendChild(el("span", {}, "empty"));
    } else box.appendChild(el("span", {}, `${zone.count} hidden`));
    board.appendChild(box);
  }
  players();
  legend();
  const log = $("log");
  if (lines(log, f.log)) log.scrollTop = log.scrollHeight;
  lines($("told"), f.told);
  $("told-box").hidden = !f.told.length;
}
function lines(list, texts) {
  // a list's items made `texts`, keeping the items it already shows (a log only grows: one item more a frame,
  // not the whole log drawn again); whether anything changed
  const items = list.children;
  let same = 0;
  while (same < items.length && same < texts.length && items[same].textContent === texts[same]) same++;
  if (same === items.length && same === texts.length) return false;
  while (items.length > same) list.lastChild.remove();
  for (const line of texts.slice(same)) list.appendChild(el("li", {}, line));
  return true;
}
