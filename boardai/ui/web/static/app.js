/* The page of `boardai serve`: the client side of the API in docs/web.md.
 *
 * One live game at a time: its state comes from the REST answers and the game's websocket
 * (a `state` message after every change, `analysis` snapshots while an engine thinks).  The
 * board is drawn in SVG from `state.view` (Board.view() on the server): two layers, the cells
 * and stones (click targets) and an overlay (heat map, principal variation, solve marks) that
 * never takes clicks.  Plain ES2020, no build step, nothing from the network but our server.
 */
"use strict";

const SVGNS = "http://www.w3.org/2000/svg";
const MISTAKE_DROP = 0.2;          // a move that loses more than this much win-rate is a mistake
const HEAT_LABELS = 3;             // the best few moves get their win-rate written on them
const PV_SHOWN = 6;                // ghost stones of the principal variation
const LINES_SHOWN = 3;             // candidate lines (multi-PV) listed under the figures
const PV_LETTERS = "abcdefghijklmnopqrstuvwxyz";

const app = {
  meta: null,             // GET /api/meta
  state: null,            // the live game's state
  stateAt: 0,             // performance.now() when state.clocks was received
  viewPly: null,          // null: the live position; else the ply looked at
  stepped: null,          // the view of viewPly (GET .../view?ply=N)
  targetPly: null,        // while stepping: the ply the key presses so far lead to
  stepping: false,        // a step is being fetched (later presses move targetPly on)
  views: new Map(),       // ply -> the view of the position after it (for stepping)
  movesSeen: "",          // the moves the cached views belong to
  stopping: false,        // Analyse was just unticked: late analysis messages are dropped
  engineEdited: false,    // the analysis engine was typed: a new game keeps it
  analysis: null,         // the latest websocket analysis message
  liveWinrates: {},       // ply -> Black's win-rate from analysis messages
  solve: null,            // {ply, scores, exact, note}
  solving: null,          // {id, ply} while a Solve runs (its button is Stop)
  ws: null,
  wsGame: null,           // the game id the websocket is for
  hoverColumn: null,      // drop games: the column under the pointer
  stores: [],
  currentStore: null,
};

/* ---------------------------------------------------------------- small helpers */

const $ = (sel) => document.querySelector(sel);

function svg(tag, attrs = {}, parent = null) {
  const el = document.createElementNS(SVGNS, tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  if (parent) parent.appendChild(el);
  return el;
}

function html(tag, attrs = {}, text = null) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined) el.setAttribute(k, String(v));
  }
  if (text !== null) el.textContent = text;
  return el;
}

function percent(p) {
  return p === null || p === undefined ? "–" : `${Math.round(p * 100)}%`;
}

function formatClock(seconds) {
  const s = Math.max(0, seconds || 0);
  const m = Math.floor(s / 60);
  const rest = s - 60 * m;
  const whole = Math.floor(rest);
  return `${m}:${String(whole).padStart(2, "0")}${s < 10 ? "." + Math.floor((rest - whole) * 10) : ""}`;
}

function formatCount(n) {
  if (n === null || n === undefined) return "–";
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  return String(Math.round(n));
}

function capital(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : "";
}

class ApiError extends Error {}

/** The server's token (in the page it served): every API call and websocket carries it. */
function apiToken() {
  const meta = document.querySelector('meta[name="boardai-token"]');
  return meta ? meta.content : "";
}

/** One API call: JSON in and out; a 4xx/5xx answer throws its `error` text. */
async function api(method, path, body = undefined) {
  const options = { method, headers: { "X-Boardai-Token": apiToken() }, credentials: "same-origin" };
  if (body !== undefined) {
    options.body = JSON.stringify(body);
    options.headers["Content-Type"] = "application/json";
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (err) {
    throw new ApiError(`the server does not answer (${err.message})`);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch (_) {
    data = null;
  }
  if (!response.ok) {
    const why = data && data.error ? data.error : text || response.statusText;
    throw new ApiError(why);
  }
  return data;
}

function showMessage(text, kind = "error") {
  const box = $("#message");
  box.textContent = text || "";
  box.className = text ? kind : "";
}

function clearMessage() {
  showMessage("");
}

/** Run an action; its ApiError (or any error) goes to the message line. */
async function guarded(action) {
  try {
    return await action();
  } catch (err) {
    showMessage(err.message || String(err));
    return undefined;
  }
}

/* ---------------------------------------------------------------- meta: games and engines */

/** A game of /api/meta as {name, title, swap, blocked, random, size}, whether the server
 *  lists names or objects. */
function gameInfo(entry) {
  if (typeof entry === "string") {
    return { name: entry, title: entry, swap: entry === "hex", blocked: entry === "connect4",
             random: entry === "connect4", size: "" };
  }
  const size = entry.default_size ?? entry.size ?? entry.play_size ?? "";
  return {
    name: entry.name,
    title: entry.title || entry.name,
    swap: Boolean(entry.swap),
    blocked: Boolean(entry.blocked_cells ?? entry.blocked),
    random: Boolean(entry.random_size ?? entry.random),
    size: Array.isArray(size) ? `${size[0]}x${size[1]}` : String(size),
    sizeHint: entry.size_hint || entry.sizes || "",
    engine: entry.engine || "mcts",
  };
}

function engineName(entry) {
  return typeof entry === "string" ? entry : entry.name;
}

function gamesOfMeta() {
  return (app.meta?.games || []).map(gameInfo);
}

function fillNewGameForm() {
  const select = $("#ng-game");
  select.innerHTML = "";
  for (const g of gamesOfMeta()) {
    select.appendChild(html("option", { value: g.name }, g.title));
  }
  for (const seat of ["black", "white"]) {
    const kind = $(`#ng-${seat}-kind`);
    kind.innerHTML = "";
    kind.appendChild(html("option", { value: "human" }, "human"));
    for (const e of app.meta?.engines || []) {
      const name = engineName(e);
      if (name === "human" || (typeof e === "object" && e.allowed === false)) continue;
      const option = html("option", { value: name }, name);
      if (typeof e === "object" && (e.summary || e.description)) option.title = e.summary || e.description;
      kind.appendChild(option);
    }
    kind.addEventListener("change", () => seatKindChanged(seat));
  }
  $("#ng-white-kind").value = hasEngine("mcts") ? "mcts" : "human";
  seatKindChanged("black");
  seatKindChanged("white");
  if (gamesOfMeta().some((g) => g.name === "hex")) select.value = "hex";
  select.addEventListener("change", gameChoiceChanged);
  gameChoiceChanged();
}

function hasEngine(name) {
  return (app.meta?.engines || []).some((e) => engineName(e) === name);
}

function seatKindChanged(seat) {
  const kind = $(`#ng-${seat}-kind`).value;
  const spec = $(`#ng-${seat}-spec`);
  spec.disabled = kind === "human";
  spec.value = kind === "human" ? "" : kind;
}

function gameChoiceChanged() {
  const g = gamesOfMeta().find((x) => x.name === $("#ng-game").value);
  if (!g) return;
  $("#ng-swap-row").hidden = !g.swap;
  $("#ng-blocked-row").hidden = !g.blocked;
  const size = $("#ng-size");
  size.placeholder = g.size || (g.name === "connect4" ? "7x6" : "");
  if (g.random) size.placeholder += " or random";
  size.value = "";
}

/** The body of POST /api/games from the form. */
function newGameBody() {
  const game = $("#ng-game").value;
  const info = gamesOfMeta().find((x) => x.name === game) || { swap: false, blocked: false };
  const body = { game };
  const size = $("#ng-size").value.trim();
  if (size) body.size = size;
  if (info.swap) body.swap = $("#ng-swap").checked;
  if (info.blocked) {
    const text = $("#ng-blocked").value.trim();
    if (text.toLowerCase() === "random") body.blocked = "random";
    else if (text) body.blocked = text.split(/[\s,]+/).filter(Boolean);
  }
  for (const seat of ["black", "white"]) {
    const kind = $(`#ng-${seat}-kind`).value;
    const spec = $(`#ng-${seat}-spec`).value.trim();
    body[seat] = kind === "human" ? "human" : spec || kind;
  }
  const time = parseFloat($("#ng-time").value);
  if (Number.isFinite(time)) body.time = time;
  return body;
}

async function startNewGame(event) {
  event.preventDefault();
  await guarded(async () => {
    const state = await api("POST", "/api/games", newGameBody());
    await setGame(state);
    $("#new-game-panel").open = false;
    showMessage(`New game: ${state.title || state.game} ${state.size}`, "info");
  });
}

/* ---------------------------------------------------------------- the live game */

/** Make `state` the game on the page (a new game, an upload, an arena replay). */
async function setGame(state) {
  const old = app.state;
  if (old && old.id !== state.id && (!old.view.over || old.analysing || old.thinking)) {
    api("DELETE", `/api/games/${old.id}`).catch(() => {});   // stop its searches
  }
  app.state = null;
  app.viewPly = null;
  app.stepped = null;
  app.analysis = null;
  app.liveWinrates = {};
  app.solve = null;
  app.views = new Map();
  app.movesSeen = "";
  app.targetPly = null;
  $("#analyse-toggle").checked = false;
  if (!app.engineEdited) {
    const info = gamesOfMeta().find((g) => g.name === state.game);
    if (info) $("#analyse-engine").value = info.engine;
  }
  $("#review-progress").textContent = "";
  $("#solve-info").textContent = "";
  applyState(state);
  history.replaceState(null, "", `#game=${encodeURIComponent(state.id)}`);
  connectSocket(state.id);
}

/** A new state of the live game (websocket or REST answer). */
function applyState(state) {
  const previous = app.state;
  app.state = state;
  app.stateAt = performance.now();
  const live = state.view.ply;
  if (previous && previous.view.ply !== live) {
    if (app.solve && app.solve.ply !== live) {
      app.solve = null;                  // the server stops a solve of another position
      $("#solve-info").textContent = "";
    }
    // undo: forget win-rates beyond the position now live
    for (const p of Object.keys(app.liveWinrates)) if (Number(p) > live) delete app.liveWinrates[p];
  }
  if (app.analysis && app.analysis.ply !== live) app.analysis = null;
  const moves = (state.moves || []).map((m) => m.name).join(" ");
  if (!moves.startsWith(app.movesSeen)) app.views = new Map();   // undone: other positions
  app.movesSeen = moves;
  if (app.viewPly !== null && app.viewPly >= live) {
    app.viewPly = null;
    app.stepped = null;
  }
  if (state.analysing && !app.stopping) $("#analyse-toggle").checked = true;
  if (state.message) showMessage(state.message, "info");
  renderAll();
}

function connectSocket(gameId) {
  if (app.ws) {
    app.ws.onclose = null;
    app.ws.close();
  }
  app.wsGame = gameId;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/api/games/${encodeURIComponent(gameId)}/ws`,
                           ["boardai", `boardai-token.${apiToken()}`]);
  app.ws = ws;
  ws.onopen = () => setConnection(true);
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch (_) {
      return;
    }
    if (app.wsGame === gameId) socketMessage(msg);
  };
  ws.onclose = (event) => {
    setConnection(false);
    if (event.code === 4404) app.wsGame = null;        // the game is gone: no reconnecting
    if (app.ws === ws && app.wsGame === gameId) {
      setTimeout(() => { if (app.wsGame === gameId && app.ws === ws) connectSocket(gameId); }, 1500);
    }
  };
}

function setConnection(up) {
  const badge = $("#connection");
  badge.textContent = up ? "live" : "offline";
  badge.className = up ? "live" : "muted";
}

function socketOpen() {
  return app.ws && app.ws.readyState === WebSocket.OPEN;
}

function socketMessage(msg) {
  switch (msg.type) {
    case "state":
      if (msg.state && (!app.state || msg.state.id === app.state.id)) applyState(msg.state);
      break;
    case "analysis":
      takeAnalysis(msg);
      break;
    case "solve":
      takeSolve(msg);
      break;
    case "review":
      if (typeof msg.ply === "number" && typeof msg.black_winrate === "number") {
        app.liveWinrates[msg.ply] = msg.black_winrate;
        renderGraph();
        renderMoveList();              // the list marks the same mistakes as the graph, at once
      }
      $("#review-progress").textContent =
        msg.done >= msg.total ? `Review done (${msg.total} positions)` : `Reviewing… ${msg.done}/${msg.total}`;
      if (msg.done >= msg.total) refreshState();
      break;
    case "error":
      showMessage(msg.error);
      break;
    case "closed":
      app.wsGame = null;
      showMessage("This game was closed on the server: start a new one.", "info");
      break;
    default:
      break;
  }
}

async function refreshState() {
  if (!app.state) return;
  const state = await guarded(() => api("GET", `/api/games/${app.state.id}`));
  if (state) applyState(state);
}

/** A REST answer that is the game's state: the websocket brings the same state (in order with
 *  the engine's replies), so the answer is used only when the socket is down. */
function takeAnswerState(state) {
  if (state && state.view && !socketOpen()) applyState(state);
}

async function gameAction(path, body = undefined) {
  if (!app.state) return;
  clearMessage();
  await guarded(async () => {
    const state = await api("POST", `/api/games/${app.state.id}/${path}`, body);
    takeAnswerState(state);
  });
}

/* ---------------------------------------------------------------- stepping through the game */

function liveView() {
  return app.state ? app.state.view : null;
}

function shownView() {
  return app.viewPly === null ? liveView() : app.stepped || liveView();
}

function shownPly() {
  return app.viewPly === null ? (app.state ? app.state.view.ply : 0) : app.viewPly;
}

/** Show the position after `ply` moves.  Every call counts: while a view is being fetched,
 *  later calls move the target on and the loop below goes on to it, so three quick presses of
 *  ← step back three plies (views already seen come from a cache, with no request). */
async function goToPly(ply) {
  if (!app.state) return;
  const clamp = (p) => Math.max(0, Math.min(app.state.view.ply, p));
  app.targetPly = clamp(ply);
  if (app.stepping) return;                 // the running loop picks the new target up
  app.stepping = true;
  try {
    while (app.state && app.targetPly !== null) {
      const want = clamp(app.targetPly);
      app.targetPly = want;
      const gid = app.state.id;
      if (want === app.state.view.ply) {
        app.viewPly = null;
        app.stepped = null;
      } else if (want !== app.viewPly) {
        let view = app.views.get(want);
        if (!view) {
          const data = await guarded(() => api("GET", `/api/games/${gid}/view?ply=${want}`));
          if (!data || !app.state || app.state.id !== gid) break;
          view = data.view && data.view.spots ? data.view : data;
          app.views.set(want, view);
        }
        if (want >= app.state.view.ply) continue;          // the game moved on meanwhile
        app.viewPly = want;
        app.stepped = view;
      }
      renderAll();
      if (app.targetPly === want) break;
    }
  } finally {
    app.stepping = false;
    app.targetPly = null;
  }
}

function stepBy(delta) {
  goToPly((app.targetPly !== null ? app.targetPly : shownPly()) + delta);
}

/* ---------------------------------------------------------------- board geometry */

/** Where things go on the picture of `view`: one object per shape (hex rhombus, drop grid,
 *  plain grid) with the cell outline, the stone centre and the places of the labels. */
function boardGeometry(view, game) {
  if (view.shape === "hex") return hexGeometry(view);
  if (view.drops) return dropGeometry(view);
  return gridGeometry(view, game);
}

function hexGeometry(view) {
  const r = 20;                              // centre to corner of a hexagon (pointy top)
  const w = Math.sqrt(3) * r;                // width of a hexagon
  const W = view.width, H = view.height;
  const pad = 2.6 * r;
  const ox = pad + w, oy = pad + r;
  const centre = (x, y) => [ox + x * w + (y * w) / 2, oy + y * 1.5 * r];
  const hexPoints = (cx, cy, rr) => {
    const pts = [];
    for (let i = 0; i < 6; i++) {
      const a = (Math.PI / 180) * (60 * i - 90);
      pts.push(`${(cx + rr * Math.cos(a)).toFixed(2)},${(cy + rr * Math.sin(a)).toFixed(2)}`);
    }
    return pts.join(" ");
  };
  // the coloured border: four triangles from the middle to the corners of a larger rhombus
  const k = w / (3 * r);                     // x shift per unit of y along a column
  const y0 = oy - 1.45 * r, y1 = oy + (H - 1) * 1.5 * r + 1.45 * r;
  const xl = (y) => ox - 0.95 * w + (y - oy) * k;
  const xr = (y) => ox + (W - 1) * w + 0.95 * w + (y - oy) * k;
  const corners = { tl: [xl(y0), y0], tr: [xr(y0), y0], br: [xr(y1), y1], bl: [xl(y1), y1] };
  const [lastX] = centre(W - 1, H - 1);
  return {
    kind: "hex",
    width: lastX + w + pad, height: oy + (H - 1) * 1.5 * r + r + pad,
    r, stoneR: 0.74 * r,
    centre,
    cellShape: (x, y, parent, attrs) => {
      const [cx, cy] = centre(x, y);
      return svg("polygon", { points: hexPoints(cx, cy, r), ...attrs }, parent);
    },
    heatShape: (x, y, parent, attrs) => {
      const [cx, cy] = centre(x, y);
      return svg("polygon", { points: hexPoints(cx, cy, r * 0.9), ...attrs }, parent);
    },
    colLabel: (x) => centre(x, -1.2),
    colLabelBottom: (x) => centre(x, H + 0.2),
    rowLabel: (y) => centre(-1.3, y),
    rowLabelRight: (y) => centre(W + 0.3, y),
    corners,
  };
}

function dropGeometry(view) {
  const s = 44;
  const W = view.width, H = view.height;
  const left = 34, top = 34;                 // room for the row labels and the solve scores
  const centre = (x, y) => [left + x * s + s / 2, top + y * s + s / 2];
  return {
    kind: "drops",
    width: left + W * s + 12, height: top + H * s + 30,
    s, left, top, stoneR: 0.4 * s,
    centre,
    cellShape: (x, y, parent, attrs) =>
      svg("rect", { x: left + x * s, y: top + y * s, width: s, height: s, ...attrs }, parent),
    heatShape: (x, y, parent, attrs) => {
      const [cx, cy] = centre(x, y);
      return svg("circle", { cx, cy, r: 0.42 * s, ...attrs }, parent);
    },
    colLabel: (x) => [left + x * s + s / 2, top + H * s + 18],
    rowLabel: (y) => [left - 14, top + y * s + s / 2],
    scoreSpot: (x) => [left + x * s + s / 2, top - 12],
  };
}

function gridGeometry(view, game) {
  const s = game === "tictactoe" ? 70 : 40;
  const W = view.width, H = view.height;
  const left = 30, top = 14;
  const centre = (x, y) => [left + x * s + s / 2, top + y * s + s / 2];
  return {
    kind: game === "tictactoe" ? "marks" : "grid",
    width: left + W * s + 14, height: top + H * s + 28,
    s, left, top, stoneR: 0.38 * s,
    centre,
    cellShape: (x, y, parent, attrs) =>
      svg("rect", { x: left + x * s, y: top + y * s, width: s, height: s, ...attrs }, parent),
    heatShape: (x, y, parent, attrs) =>
      svg("rect", { x: left + x * s + 3, y: top + y * s + 3, width: s - 6, height: s - 6, rx: 6,
                    ...attrs }, parent),
    colLabel: (x) => [left + x * s + s / 2, top + H * s + 18],
    rowLabel: (y) => [left - 14, top + y * s + s / 2],
    scoreSpot: (x) => [left + x * s + s / 2, top + 10],
  };
}

/* ---------------------------------------------------------------- drawing the board */

/** The legal moves by spot: "x,y" -> move name (only in the live position). */
function legalBySpot() {
  const out = new Map();
  if (!app.state || app.viewPly !== null) return out;
  for (const [name, spot] of Object.entries(app.state.legal || {})) {
    if (Array.isArray(spot)) out.set(`${spot[0]},${spot[1]}`, name);
  }
  return out;
}

/** Drop games: the legal move of column x (or null). */
function columnMove(x) {
  if (!app.state || app.viewPly !== null) return null;
  for (const [name, spot] of Object.entries(app.state.legal || {})) {
    if (Array.isArray(spot) && spot[0] === x) return name;
  }
  return null;
}

function renderBoard() {
  const box = $("#board");
  const view = shownView();
  box.innerHTML = "";
  if (!view) return;
  const game = app.state.game;
  const geo = boardGeometry(view, game);
  const root = svg("svg", {
    viewBox: `0 0 ${geo.width.toFixed(1)} ${geo.height.toFixed(1)}`,
    class: `board board-${geo.kind}`, role: "img",
    "aria-label": `${app.state.title || game} board`,
    "data-ply": view.ply, "data-game": game, "data-id": app.state.id,
    "data-live": app.viewPly === null ? "1" : "0",
    "data-turn": view.turn, "data-over": view.over ? "1" : "0",
    "data-to-move": view.over ? "" : app.state.players?.[view.turn] ?? "",
    "data-thinking": app.state.thinking || "",
  });
  const defs = svg("defs", {}, root);
  const hatch = svg("pattern", { id: "hatch", width: 8, height: 8, patternUnits: "userSpaceOnUse",
                                 patternTransform: "rotate(45)" }, defs);
  svg("rect", { width: 8, height: 8, class: "hatch-bg" }, hatch);
  svg("line", { x1: 0, y1: 0, x2: 0, y2: 8, class: "hatch-line" }, hatch);

  if (geo.kind === "hex") drawHexEdges(root, geo, view);
  if (geo.kind === "drops") {
    svg("rect", { x: geo.left - 6, y: geo.top - 6, width: view.width * geo.s + 12,
                  height: view.height * geo.s + 12, rx: 10, class: "frame" }, root);
  }
  const cells = svg("g", { class: "cells" }, root);
  const legal = legalBySpot();
  const winning = new Set((view.win || []).map(([x, y]) => `${x},${y}`));
  const last = view.last ? `${view.last[0]},${view.last[1]}` : null;
  for (let y = 0; y < view.height; y++) {
    for (let x = 0; x < view.width; x++) {
      const value = view.spots[y][x];
      const key = `${x},${y}`;
      const move = legal.get(key) || null;
      const classes = ["spot"];
      if (move) classes.push("legal");
      if (winning.has(key)) classes.push("win");
      if (key === last) classes.push("last");
      if (value === 3) classes.push("blocked");
      const g = svg("g", { class: classes.join(" "), "data-x": x, "data-y": y,
                           "data-move": move }, cells);
      drawSpot(g, geo, x, y, value, view);
    }
  }
  drawLabels(root, geo, view);
  svg("g", { class: "overlay", "pointer-events": "none" }, root);
  box.appendChild(root);
  renderOverlay();
}

function drawHexEdges(root, geo, view) {
  const { tl, tr, br, bl } = geo.corners;
  const mid = [(tl[0] + br[0]) / 2, (tl[1] + br[1]) / 2];
  const pts = (...ps) => ps.map((p) => `${p[0].toFixed(1)},${p[1].toFixed(1)}`).join(" ");
  const edges = app.state.edges || { black: "top-bottom", white: "left-right" };
  const topColour = edges.black === "top-bottom" ? "black" : "white";
  const sideColour = topColour === "black" ? "white" : "black";
  const g = svg("g", { class: "edges" }, root);
  svg("polygon", { points: pts(tl, tr, mid), class: `edge ${topColour}`, "data-edge": "top" }, g);
  svg("polygon", { points: pts(bl, br, mid), class: `edge ${topColour}`, "data-edge": "bottom" }, g);
  svg("polygon", { points: pts(tl, bl, mid), class: `edge ${sideColour}`, "data-edge": "left" }, g);
  svg("polygon", { points: pts(tr, br, mid), class: `edge ${sideColour}`, "data-edge": "right" }, g);
  svg("polygon", { points: pts(tl, tr, br, bl), class: "edge-outline" }, g);
}

function drawSpot(g, geo, x, y, value, view) {
  const [cx, cy] = geo.centre(x, y);
  if (geo.kind === "drops") {
    geo.cellShape(x, y, g, { class: "cell" });
    if (value === 3) {
      const half = geo.s * 0.46;
      svg("rect", { x: cx - half, y: cy - half, width: 2 * half, height: 2 * half, rx: 5,
                    class: "blocked-cell" }, g);
    } else if (value === 1 || value === 2) {
      svg("circle", { cx, cy, r: geo.stoneR, class: `stone ${value === 1 ? "black" : "white"}` }, g);
    } else {
      svg("circle", { cx, cy, r: geo.stoneR, class: "hole" }, g);
    }
  } else {
    geo.cellShape(x, y, g, { class: value === 3 ? "cell blocked-cell" : "cell" });
    if (value === 1 || value === 2) {
      const colour = value === 1 ? "black" : "white";
      if (geo.kind === "marks") drawMark(g, cx, cy, geo.stoneR, colour);
      else svg("circle", { cx, cy, r: geo.stoneR, class: `stone ${colour}` }, g);
    }
  }
  const key = `${x},${y}`;
  if (view.last && key === `${view.last[0]},${view.last[1]}`) {
    svg("circle", { cx, cy, r: geo.stoneR * 0.28, class: `last-mark ${value === 1 ? "on-black" : "on-white"}` }, g);
  }
  if ((view.win || []).some(([wx, wy]) => wx === x && wy === y)) {
    svg("circle", { cx, cy, r: geo.stoneR * 1.08, class: "win-mark" }, g);
  }
}

/** Tic-tac-toe: X for Black, O for White (still a `.stone`). */
function drawMark(g, cx, cy, r, colour) {
  const mark = svg("g", { class: `stone ${colour} mark` }, g);
  if (colour === "black") {
    const d = r * 0.75;
    svg("line", { x1: cx - d, y1: cy - d, x2: cx + d, y2: cy + d }, mark);
    svg("line", { x1: cx - d, y1: cy + d, x2: cx + d, y2: cy - d }, mark);
  } else {
    svg("circle", { cx, cy, r: r * 0.8 }, mark);
  }
}

function drawLabels(root, geo, view) {
  const g = svg("g", { class: "labels" }, root);
  const text = (pos, label) => {
    const t = svg("text", { x: pos[0].toFixed(1), y: pos[1].toFixed(1), "text-anchor": "middle",
                            "dominant-baseline": "central" }, g);
    t.textContent = label;
  };
  (view.col_labels || []).forEach((label, x) => {
    text(geo.colLabel(x), label);
    if (geo.colLabelBottom) text(geo.colLabelBottom(x), label);
  });
  (view.row_labels || []).forEach((label, y) => {
    text(geo.rowLabel(y), label);
    if (geo.rowLabelRight) text(geo.rowLabelRight(y), label);
  });
}

/** The overlay: heat map and ghost stones of the analysis, solve marks, hover preview. */
function renderOverlay() {
  const overlay = document.querySelector("#board svg .overlay");
  if (!overlay || !app.state) return;
  overlay.innerHTML = "";
  const view = shownView();
  const geo = boardGeometry(view, app.state.game);
  const an = app.analysis;
  const scored = app.solve && app.solve.ply === view.ply ? app.solve
    : an && an.ply === view.ply && an.scores ? { scores: an.scores, spots: {} } : null;
  if (an && an.ply === view.ply) {
    const heat = svg("g", { class: "heatmap" }, overlay);
    const pv = svg("g", { class: "pv" }, overlay);               // ghosts above the heat
    const ghostSpots = drawPv(pv, geo, an, view);
    drawHeat(heat, geo, an, view, ghostSpots, Boolean(scored && geo.kind === "drops"));
  }
  if (scored) drawSolve(overlay, geo, view, scored);
  renderLegend(Boolean(an && an.ply === view.ply), Boolean(scored),
               Boolean(scored && geo.kind === "drops" && scored.unsettled && scored.unsettled.length));
  if (geo.kind === "drops" && app.hoverColumn !== null && app.viewPly === null && !view.over) {
    const name = columnMove(app.hoverColumn);
    const spot = name ? app.state.legal[name] : null;
    if (spot) {
      const [cx, cy] = geo.centre(spot[0], spot[1]);
      svg("circle", { cx, cy, r: geo.stoneR, class: `preview ${view.turn}` }, overlay);
    }
  }
}

/** The heat map's colour for t in [0, 1]: pale yellow (little) through orange to red (much);
 *  by win-rate, red (losing) through yellow to green (winning). */
function heatColour(t, byWinrate) {
  const hue = byWinrate ? 120 * t : 55 - 55 * t;
  return `hsl(${hue.toFixed(0)}, 90%, ${(62 - 12 * t).toFixed(0)}%)`;
}

function drawHeat(overlay, geo, an, view, ghostSpots, exactShown = false) {
  const moves = (an.moves || []).filter((m) => Array.isArray(m.spot));
  if (!moves.length) return;
  const byWinrate = $("#heat-winrate").checked;
  const maxVisits = Math.max(1, ...moves.map((m) => m.visits || 0));
  const total = moves.reduce((sum, m) => sum + (m.visits || 0), 0) || 1;
  const ranked = [...moves].sort((a, b) => (b.visits || 0) - (a.visits || 0));
  const labelled = new Set(ranked.slice(0, HEAT_LABELS).map((m) => m.move));
  for (const m of moves) {
    const [x, y] = m.spot;
    const share = (m.visits || 0) / maxVisits;
    const t = byWinrate && m.winrate !== null && m.winrate !== undefined ? m.winrate : share;
    const opacity = byWinrate ? 0.35 + 0.5 * Math.sqrt(share) : 0.12 + 0.8 * Math.sqrt(share);
    geo.heatShape(x, y, overlay, {
      class: "heat", fill: heatColour(t, byWinrate), "fill-opacity": opacity.toFixed(2),
      "data-move": m.move, "data-visits": m.visits, "data-share": ((m.visits || 0) / total).toFixed(3),
    });
    if (labelled.has(m.move) && m.winrate !== null && m.winrate !== undefined
        && !ghostSpots.has(`${x},${y}`) && !exactShown) {
      const [cx, cy] = geo.centre(x, y);
      const label = svg("text", { x: cx.toFixed(1), y: cy.toFixed(1), class: "heat-label",
                                  "text-anchor": "middle", "dominant-baseline": "central",
                                  "data-move": m.move }, overlay);
      label.textContent = `${Math.round(m.winrate * 100)}%`;
    }
  }
}

/** Ghost stones of the principal variation: small see-through stones lettered a, b, c… after
 *  the first move (the ringed heat cell), so that none reads as a win-rate; returns the spots
 *  they cover. */
function drawPv(group, geo, an, view) {
  let colour = view.turn;
  let n = 0;
  const used = new Set();
  for (const step of (an.pv || []).slice(0, PV_SHOWN)) {
    n += 1;
    const here = colour;
    colour = colour === "black" ? "white" : "black";
    if (n === 1 || !Array.isArray(step.spot)) continue;   // the first is marked by the heat map
    const key = `${step.spot[0]},${step.spot[1]}`;
    if (used.has(key)) continue;
    used.add(key);
    const [cx, cy] = geo.centre(step.spot[0], step.spot[1]);
    svg("circle", { cx, cy, r: geo.stoneR * 0.55, class: `ghost ${here}`, "data-move": step.move,
                    "data-step": n - 1 }, group);
    const t = svg("text", { x: cx.toFixed(1), y: cy.toFixed(1), class: `ghost-label ${here}`,
                            "text-anchor": "middle", "dominant-baseline": "central" }, group);
    t.textContent = PV_LETTERS[n - 2] || "";
  }
  // the first move of the line: a ring on its heat cell
  const first = (an.pv || [])[0];
  if (first && Array.isArray(first.spot)) {
    const [cx, cy] = geo.centre(first.spot[0], first.spot[1]);
    svg("circle", { cx, cy, r: geo.stoneR * 0.95, class: `best-ring ${view.turn}` }, group);
  }
  return used;
}

function scoreValue(score) {
  if (typeof score === "number") return score;
  const t = String(score).toLowerCase();
  if (["win", "won", "w", "+"].includes(t)) return 1;
  if (["loss", "lost", "lose", "l", "-"].includes(t)) return -1;
  if (["draw", "d", "0"].includes(t)) return 0;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Exact scores: above each column on drop boards, as on Pascal Pons' Connect Four page (one
 *  number, green wins, grey draws, red loses); a green/red/grey dot on the cell elsewhere. */
function drawSolve(overlay, geo, view, answer) {
  const scores = answer.scores || {};
  const legal = app.state.legal || {};
  const spots = answer.spots || {};
  for (const [move, raw] of Object.entries(scores)) {
    const value = scoreValue(raw);
    const spot = spots[move] || legal[move];
    if (value === null || !Array.isArray(spot)) continue;
    const kind = value > 0 ? "won" : value < 0 ? "lost" : "draw";
    if (geo.kind === "drops" || geo.kind === "marks" || geo.kind === "grid") {
      if (geo.kind === "drops") {
        const [sx, sy] = geo.scoreSpot(spot[0]);
        const t = svg("text", { x: sx, y: sy, class: `solve-score ${kind}`, "text-anchor": "middle",
                                "dominant-baseline": "central", "data-move": move }, overlay);
        t.textContent = value > 0 ? `+${value}` : value < 0 ? `−${-value}` : "0";
        continue;
      }
    }
    const [cx, cy] = geo.centre(spot[0], spot[1]);
    svg("circle", { cx, cy, r: geo.stoneR * 0.45, class: `solve ${kind}`, "data-move": move }, overlay);
  }
  if (geo.kind !== "drops") return;
  for (const move of answer.unsettled || []) {      // columns not settled (yet): a grey ?
    const spot = legal[move];
    if (!Array.isArray(spot)) continue;
    const [sx, sy] = geo.scoreSpot(spot[0]);
    const t = svg("text", { x: sx, y: sy, class: "solve-score unsettled", "text-anchor": "middle",
                            "dominant-baseline": "central", "data-move": move }, overlay);
    t.textContent = "?";
  }
}

/* ---------------------------------------------------------------- clicks on the board */

function boardClicked(event) {
  const spot = event.target.closest("[data-x]");
  if (!spot || !app.state) return;
  if (app.viewPly !== null) {
    showMessage(`You are looking at move ${app.viewPly}: press End (or ⏭) to go back to the game.`, "info");
    return;
  }
  const x = Number(spot.dataset.x), y = Number(spot.dataset.y);
  const view = app.state.view;
  let move = spot.dataset.move || null;
  if (!move && view.drops) move = columnMove(x);
  playMove(move ? { move } : { x, y });
}

async function playMove(body) {
  const pending = drawPendingStone(body);
  await gameAction("move", body);
  if (pending && pending.isConnected) renderBoard();   // refused: the provisional stone goes
}

/** Draw the human's stone at once, before the server answers (it then redraws the board from
 *  its state; a refusal takes the stone away).  Only for a legal move of a human's turn. */
function drawPendingStone(body) {
  const s = app.state;
  if (!s || app.viewPly !== null || s.view.over || s.players?.[s.view.turn] !== "human") return null;
  const spot = body.move !== undefined ? (s.legal || {})[body.move] : null;
  if (!Array.isArray(spot)) return null;
  const [x, y] = spot;
  const g = document.querySelector(`#board svg .cells [data-x="${x}"][data-y="${y}"]`);
  if (!g) return null;
  const geo = boardGeometry(s.view, s.game);
  const [cx, cy] = geo.centre(x, y);
  const colour = s.view.turn === "black" ? "black" : "white";
  const before = g.lastChild;
  if (geo.kind === "marks") drawMark(g, cx, cy, geo.stoneR, colour);
  else svg("circle", { cx, cy, r: geo.stoneR, class: `stone ${colour} pending` }, g);
  return before ? before.nextSibling : g.firstChild;
}

function boardPointer(event) {
  if (!app.state || !app.state.view.drops) return;
  const spot = event.target.closest ? event.target.closest("[data-x]") : null;
  const column = spot ? Number(spot.dataset.x) : null;
  if (column !== app.hoverColumn) {
    app.hoverColumn = column;
    renderOverlay();
  }
}

/* ---------------------------------------------------------------- the side panels */

function renderAll() {
  renderBoard();
  renderHeader();
  renderStatus();
  renderMoveList();
  renderClocks();
  renderAnalysisInfo();
  renderGraph();
  renderEvalBar();
  renderSolveButton();
}

/** The legend under the board: only the marks drawn now. */
function renderLegend(analysis, exact, unsettled = false) {
  const legend = $("#legend");
  legend.hidden = !analysis && !exact;
  for (const key of [".key-heat", ".key-rate", ".key-ring", ".key-pv"]) legend.querySelector(key).hidden = !analysis;
  legend.querySelector(".key-score").hidden = !exact;
  legend.querySelector(".key-unsettled").hidden = !unsettled;
}

/** Black's share of the position shown, in [0, 1], and where it comes from (null: unknown):
 *  an exact answer (win 1, draw 1/2, loss 0 for the side to move), the analysis, else the
 *  win-rate the game has for that ply. */
function evaluationShown() {
  if (!app.state) return null;
  const view = shownView();
  const ply = view.ply;
  if (view.over) return { black: view.winner === "black" ? 1 : view.winner === "white" ? 0 : 0.5, exact: true };
  const fromMover = (p) => (view.turn === "black" ? p : 1 - p);
  const an = app.analysis && app.analysis.ply === ply ? app.analysis : null;
  const scores = app.solve && app.solve.ply === ply && app.solve.exact ? app.solve.scores
    : an && an.scores ? an.scores : null;
  if (scores && Object.keys(scores).length) {
    const best = Math.max(...Object.values(scores).map(scoreValue).filter((v) => v !== null));
    if (Number.isFinite(best)) return { black: fromMover(best > 0 ? 1 : best < 0 ? 0 : 0.5), exact: true };
  }
  // a partial solve settles the position where one settled move wins (the rest cannot undo it)
  const partial = app.solve && app.solve.ply === ply && app.solve.exact !== true ? app.solve.scores : null;
  if (partial && Object.values(partial).map(scoreValue).some((v) => v !== null && v > 0)) {
    return { black: fromMover(1), exact: true };
  }
  if (an && an.black_winrate !== null && an.black_winrate !== undefined) return { black: an.black_winrate, exact: false };
  const w = winrateAt(ply);
  return w === null ? null : { black: w, exact: false };
}

function renderEvalBar() {
  const bar = $("#eval-bar");
  const ev = evaluationShown();
  const black = ev ? ev.black : 0.5;
  bar.classList.toggle("unknown", !ev);
  bar.dataset.black = ev ? black.toFixed(3) : "";
  $("#eval-black").style.height = `${(100 * black).toFixed(1)}%`;
  $("#eval-text").textContent = ev ? `${Math.round(100 * black)}%` : "";
  bar.title = ev ? `Black ${percent(black)}${ev.exact ? " (exact)" : ""} · White ${percent(1 - black)}`
    : "evaluation: analyse, review or solve to fill";
}

/** Solve only where it can settle the board; elsewhere the button is off and says why. */
function renderSolveButton() {
  const s = app.state;
  if (!s) return;
  const solvable = s.solvable || { ok: true, why: null };
  const button = $("#btn-solve");
  if (!button.classList.contains("busy")) {       // busy: it is the running solve's Stop
    button.disabled = !solvable.ok || s.view.over;
    button.title = solvable.ok ? "the exact value of every move" : `not here: ${solvable.why}`;
  }
  $("#solve-why").textContent = solvable.ok ? "" : `Solve is off here: ${solvable.why}.`;
}

function renderHeader() {
  const s = app.state;
  if (!s) return;
  const extras = [];
  if (s.swap) extras.push("swap");
  const blocked = Array.isArray(s.blocked) ? s.blocked.join(" ") : s.blocked || "";
  if (blocked) extras.push(`blocked ${blocked}`);
  $("#game-title").textContent = `${s.title || s.game} ${s.size}${extras.length ? " · " + extras.join(" · ") : ""}`;
  $("#player-black").textContent = s.players?.black ?? "";
  $("#player-white").textContent = s.players?.white ?? "";
  $("#sgf-download").setAttribute("download", `${s.game}-${s.id}.sgf`);
}

function renderStatus() {
  const s = app.state;
  if (!s) return;
  const shown = shownView();
  const view = s.view;
  const turn = $("#turn");
  if (app.viewPly !== null) {
    const where = app.viewPly === 0 ? `the start (${view.ply} moves played)` : `move ${app.viewPly} of ${view.ply}`;
    turn.textContent = `Looking at ${where} — ${capital(shown.turn)} to move here`;
  } else if (view.over) {
    turn.textContent = "";
  } else if (s.thinking) {
    turn.textContent = `${capital(s.thinking)} (${s.players?.[s.thinking] ?? "engine"}) is thinking…`;
  } else {
    const who = s.players?.[view.turn];
    turn.textContent = `${capital(view.turn)} to move${who && who !== "human" ? ` (${who})` : ""}`;
  }
  const result = $("#result");
  const overShown = view.over && app.viewPly === null;
  result.textContent = overShown ? view.result || "Game over" : "";
  result.className = overShown ? `over ${view.winner || "draw"}` : "";
  const live = view.ply;
  $("#ply-info").textContent = app.viewPly === null
    ? `move ${live} (live)` : `move ${app.viewPly} of ${live}`;
  $("#board").classList.toggle("history", app.viewPly !== null);
  $("#btn-undo").disabled = live === 0;
  $("#btn-resign").disabled = view.over;
  renderExtraMoves();
}

/** Buttons for the legal moves that have no spot on the board (Hex's swap). */
function renderExtraMoves() {
  const box = $("#extra-moves");
  box.innerHTML = "";
  const s = app.state;
  if (!s || app.viewPly !== null || s.view.over) return;
  for (const [name, spot] of Object.entries(s.legal || {})) {
    if (spot !== null) continue;
    const button = html("button", { type: "button", "data-move": name },
                         capital(name.replace(/-/g, " ")));
    button.addEventListener("click", () => playMove({ move: name }));
    box.appendChild(button);
  }
}

function renderMoveList() {
  const list = $("#movelist");
  list.innerHTML = "";
  if (!app.state) return;
  const current = shownPly();
  const mistakes = new Set(findMistakes().map((m) => m.ply));
  for (const m of app.state.moves || []) {
    const li = html("li", { "data-ply": m.ply, class: `move ${m.color}` });
    if (m.ply === current) li.classList.add("current");
    if (mistakes.has(m.ply)) li.classList.add("mistake");
    li.appendChild(html("span", { class: "num" }, `${m.ply}.`));
    li.appendChild(html("span", { class: "name" }, m.name));
    const tip = [`${capital(m.color)} ${m.name}`];
    if (m.time_s !== null && m.time_s !== undefined) tip.push(`${m.time_s.toFixed(1)} s`);
    if (m.black_winrate !== null && m.black_winrate !== undefined) tip.push(`Black ${percent(m.black_winrate)}`);
    li.title = tip.join(" · ");
    list.appendChild(li);
  }
  // keep the current move in sight by scrolling the list only (never the page)
  const item = list.querySelector("li.current");
  if (item) {
    const top = item.offsetTop;           // #movelist is position: relative
    if (top < list.scrollTop || top + item.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

function renderClocks() {
  const s = app.state;
  if (!s || !s.clocks) return;
  const running = s.view.over ? null : s.clocks.running;
  const since = (performance.now() - app.stateAt) / 1000;
  for (const side of ["black", "white"]) {
    const used = (s.clocks[side] || 0) + (running === side ? since : 0);
    $(`#clock-${side}`).textContent = formatClock(used);
    $(`#side-${side}`).classList.toggle("running", running === side);
    $(`#side-${side}`).classList.toggle("to-move", !s.view.over && s.view.turn === side);
  }
}

function takeAnalysis(msg) {
  if (!app.state) return;
  // an analysis unticked (or never ticked here) is not drawn: its last messages may still come
  if (msg.source === "analysis" && (app.stopping || !$("#analyse-toggle").checked)) return;
  app.analysis = msg;
  if (msg.black_winrate !== null && msg.black_winrate !== undefined) {
    app.liveWinrates[msg.ply] = msg.black_winrate;
  }
  renderOverlay();
  renderAnalysisInfo();
  renderGraph();
  renderEvalBar();
}

function renderAnalysisInfo() {
  const an = app.analysis;
  const shown = an && app.state && an.ply === shownPly();
  if (!shown) {
    $("#an-source").textContent = "";
    for (const id of ["#an-best", "#an-winrate", "#an-nodes", "#an-nps"]) $(id).textContent = "–";
    renderLines(null);
    return;
  }
  const best = (an.moves || []).reduce((a, b) => ((b.visits || 0) > (a?.visits || 0) ? b : a), null);
  const source = an.source === "engine"
    ? `${capital(app.state.view.turn)} (${an.engine}) thinking${an.done ? " · done" : "…"}`
    : `${an.engine} analysis${an.done ? " · done" : app.state.analysis && app.state.analysis.time === null ? " (until unticked)…" : "…"}`;
  $("#an-source").textContent = `${source} · `;
  $("#an-best").textContent = an.best || (best ? best.move : an.pv?.[0]?.move ?? "–");
  const exact = an.scores && Object.keys(an.scores).length
    ? Math.max(...Object.values(an.scores).map(scoreValue).filter((v) => v !== null)) : null;
  $("#an-winrate").textContent = Number.isFinite(exact)
    ? `exact: ${app.state.view.turn} ${exact > 0 ? "wins" : exact < 0 ? "loses" : "draws"}`
    : an.winrate === null || an.winrate === undefined ? "–"
      : `${percent(an.winrate)} for ${app.state.view.turn}`;
  $("#an-nodes").textContent = formatCount(an.nodes);
  const nps = an.nps ?? (an.time_s > 0 ? an.nodes / an.time_s : null);
  $("#an-nps").textContent = formatCount(nps);
  renderLines(an);
}

/** The best few moves (multi-PV): each with its win-rate and the line the engine expects. */
function renderLines(an) {
  const list = $("#an-lines");
  list.innerHTML = "";
  if (!an) return;
  const lines = an.lines && an.lines.length ? an.lines
    : (an.pv || []).length ? [{ move: an.pv[0].move, winrate: an.winrate, pv: an.pv }] : [];
  for (const line of lines.slice(0, LINES_SHOWN)) {
    const li = html("li", { "data-move": line.move });
    li.appendChild(html("b", {}, line.move));
    const score = an.scores ? an.scores[line.move] : undefined;
    li.appendChild(html("span", { class: "rate" }, score !== undefined && score !== null
      ? `exact ${scoreValue(score) > 0 ? "+" : ""}${score}` : percent(line.winrate)));
    let colour = app.state.view.turn;
    for (const step of line.pv || []) {
      li.appendChild(html("span", { class: `pv-move ${colour}` }, step.move));
      colour = colour === "black" ? "white" : "black";
    }
    list.appendChild(li);
  }
}

/** A solve message: streamed while the solver searches (`solving`: each move as it settles),
 *  then the final answer (exact, or what was settled when the time ran out or Stop was
 *  pressed: `stopped`), which replaces the partial one. */
function takeSolve(answer) {
  if (!app.state) return;
  // a streamed "still solving" message that arrives after the final answer of the same solve
  // (the answer also comes by HTTP) is stale: a new Solve clears app.solve first
  const ply = answer.ply ?? app.state.view.ply;
  if (ply !== app.state.view.ply) return;               // another position's: stale
  if (answer.solving && app.solve && !app.solve.solving && app.solve.ply === ply) return;
  const scores = answer.scores || {};
  // a partial answer (time ran out, or still searching): the legal moves not settled yet
  const unsettled = answer.exact === true ? []
    : Array.isArray(answer.unsettled) ? answer.unsettled
    : Object.entries(app.state.legal || {}).filter(([m, spot]) => spot && !(m in scores)).map(([m]) => m);
  app.solve = { ply, scores, unsettled,
                spots: answer.spots || {}, exact: answer.exact, note: answer.note,
                solving: Boolean(answer.solving) };
  const n = Object.keys(scores).length;
  const total = n + unsettled.length;
  const parts = [];
  const noun = app.state.view.drops ? "column" : "move";
  if (answer.exact === true) {
    parts.push("exact", `${n} ${noun}${n === 1 ? "" : "s"} scored`);
    if (answer.stopped) parts.push("stopped");          // Hex: the cells not scored stay blank
  } else if (app.solve.solving) {
    parts.push(`thinking… ${n} of ${total} ${noun}s settled so far`);
  } else if (answer.stopped) {
    parts.push(`stopped · ${n} of ${total} ${noun}s settled`);
    if (unsettled.length && app.state.view.drops) parts.push(`? above the ${unsettled.length === 1 ? "other" : "others"}`);
  } else {
    parts.push(n ? `${n} of ${total} ${noun}s settled` : `no ${noun} settled`);
    if (unsettled.length) parts.push(`${unsettled.length === 1 ? "one was" : "the others were"} still being searched when the time ran out (? above ${unsettled.length === 1 ? "it" : "them"})`);
  }
  if (answer.note && answer.exact !== true && !app.solve.solving && !answer.stopped
      && answer.note !== "stopped") parts.push(answer.note);
  $("#solve-info").textContent = `Solve: ${parts.join(" · ")}`;
  renderOverlay();
  renderEvalBar();
}

/* ---------------------------------------------------------------- win-rate graph and mistakes */

/** Black's win-rate of the position after p moves (null: not known). */
function winrateAt(p) {
  const moves = app.state?.moves || [];
  const start = app.state?.start_black_winrate;
  if (p === 0 && start !== null && start !== undefined) return start;
  if (p >= 1 && p <= moves.length) {
    const w = moves[p - 1].black_winrate;
    if (w !== null && w !== undefined) return w;
  }
  const live = app.liveWinrates[p];
  return live === undefined ? null : live;
}

function findMistakes() {
  const moves = app.state?.moves || [];
  const out = [];
  for (const m of moves) {
    const before = winrateAt(m.ply - 1), after = winrateAt(m.ply);
    if (before === null || after === null) continue;
    const drop = m.color === "black" ? before - after : after - before;
    if (drop > MISTAKE_DROP) out.push({ ply: m.ply, name: m.name, color: m.color, drop });
  }
  return out;
}

function renderGraph() {
  const box = $("#graph");
  box.innerHTML = "";
  if (!app.state) return;
  const n = Math.max(app.state.view.ply, 1);
  const W = 320, H = 120, padL = 26, padR = 8, padT = 8, padB = 16;
  const X = (p) => padL + ((W - padL - padR) * p) / n;
  const Y = (w) => padT + (H - padT - padB) * (1 - w);
  const root = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "winrate-graph", role: "img",
                            "aria-label": "Black's win-rate over the game" });
  svg("rect", { x: padL, y: padT, width: W - padL - padR, height: H - padT - padB, class: "graph-bg" }, root);
  for (const w of [0, 0.5, 1]) {
    svg("line", { x1: padL, x2: W - padR, y1: Y(w), y2: Y(w), class: w === 0.5 ? "mid" : "grid" }, root);
    const t = svg("text", { x: padL - 4, y: Y(w), "text-anchor": "end", "dominant-baseline": "central",
                            class: "axis" }, root);
    t.textContent = `${w * 100}`;
  }
  const points = [];
  for (let p = 0; p <= app.state.view.ply; p++) {
    const w = winrateAt(p);
    if (w !== null) points.push([p, w]);
  }
  if (points.length) {
    const line = points.map(([p, w]) => `${X(p).toFixed(1)},${Y(w).toFixed(1)}`).join(" ");
    const area = `${X(points[0][0]).toFixed(1)},${Y(0.5)} ${line} ${X(points[points.length - 1][0]).toFixed(1)},${Y(0.5)}`;
    svg("polygon", { points: area, class: "area" }, root);
    svg("polyline", { points: line, class: "line" }, root);
    for (const [p, w] of points) svg("circle", { cx: X(p), cy: Y(w), r: 1.8, class: "point", "data-ply": p }, root);
  }
  const mistakes = findMistakes();
  for (const m of mistakes) {
    svg("circle", { cx: X(m.ply), cy: Y(winrateAt(m.ply)), r: 4, class: "mistake", "data-ply": m.ply }, root);
  }
  const cur = shownPly();
  svg("line", { x1: X(cur), x2: X(cur), y1: padT, y2: H - padB, class: "cursor" }, root);
  const label = svg("text", { x: padL, y: H - 3, class: "axis" }, root);
  label.textContent = points.length ? "Black's win-rate (%)" : "Black's win-rate: analyse or review to fill";
  root.addEventListener("click", (event) => {
    const rect = root.getBoundingClientRect();
    const fx = ((event.clientX - rect.left) / rect.width) * W;
    goToPly(Math.round(((fx - padL) / (W - padL - padR)) * n));
  });
  box.appendChild(root);
  renderMistakes(mistakes);
}

function renderMistakes(mistakes) {
  const list = $("#mistakes");
  list.innerHTML = "";
  for (const m of mistakes) {
    const li = html("li", { "data-ply": m.ply, class: "mistake" },
                    `${m.ply}. ${m.name} (${capital(m.color)}) −${Math.round(m.drop * 100)}%`);
    list.appendChild(li);
  }
}

/* ---------------------------------------------------------------- analysis, review, solve */

async function analyseToggled() {
  if (!app.state) return;
  const on = $("#analyse-toggle").checked;
  clearMessage();
  if (on) {
    const engine = $("#analyse-engine").value.trim() || "mcts";
    const seconds = parseFloat($("#analyse-time").value);
    const time = Number.isFinite(seconds) && seconds > 0 ? seconds : null;   // null: until unticked
    app.stopping = false;
    const ok = await guarded(() => api("POST", `/api/games/${app.state.id}/analyse`, { engine, time }));
    if (ok === undefined) $("#analyse-toggle").checked = false;
  } else {
    // stopped: the heat map, ghost stones, scores and text go at once
    app.stopping = true;
    app.analysis = null;
    renderOverlay();
    renderAnalysisInfo();
    renderEvalBar();
    try {
      await guarded(() => api("POST", `/api/games/${app.state.id}/stop`, { search: "analysis" }));
    } finally {
      app.stopping = false;
    }
  }
}

async function reviewGame() {
  if (!app.state) return;
  clearMessage();
  const engine = $("#analyse-engine").value.trim() || "mcts";
  const time = parseFloat($("#analyse-time").value) || 1;
  $("#review-progress").textContent = "Reviewing…";
  const ok = await guarded(() => api("POST", `/api/games/${app.state.id}/review`,
                                     { engine, time: Math.min(time, 2) }));
  if (ok === undefined) $("#review-progress").textContent = "";
}

/** Solve: "thinking…" at once (a ? over every column), each move's score as the server's solve
 *  messages bring it, the final answer in their place; while it runs the button is Stop, which
 *  keeps the moves settled so far. */
async function solvePosition() {
  if (!app.state) return;
  if (app.solving) {
    await stopSolve();
    return;
  }
  clearMessage();
  const button = $("#btn-solve");
  const id = app.state.id;
  const ply = app.state.view.ply;
  app.solving = { id, ply };
  button.classList.add("busy");
  button.textContent = "Stop";
  button.title = "stop solving: the scores settled so far stay";
  app.solve = null;                                 // this solve's messages count
  takeSolve({ type: "solve", ply, exact: false, solving: true, scores: {} });
  try {
    const answer = await guarded(() => api("POST", `/api/games/${id}/solve`));
    if (app.state && app.state.id === id) {
      if (answer) takeSolve({ ...answer, ply });
      else if (app.solve && app.solve.solving) {     // refused: nothing is being solved
        app.solve = null;
        $("#solve-info").textContent = "";
        renderOverlay();
      }
    }
  } finally {
    app.solving = null;
    button.classList.remove("busy");
    button.textContent = "Solve";
    renderSolveButton();
  }
}

/** Stop the running solve; its answer (the scores settled) still comes to solvePosition. */
async function stopSolve() {
  if (!app.solving) return;
  $("#btn-solve").disabled = true;                  // until the answer comes
  await guarded(() => api("POST", `/api/games/${app.solving.id}/stop`, { search: "solve" }));
}

/* ---------------------------------------------------------------- SGF */

/** The record as a download: fetched with the token (a plain link would carry none), then
 *  saved from a blob under the link's file name. */
async function downloadSgf(event) {
  event.preventDefault();
  if (!app.state) return;
  const id = app.state.id;
  const name = $("#sgf-download").getAttribute("download") || `${app.state.game}-${id}.sgf`;
  await guarded(async () => {
    let response;
    try {
      response = await fetch(`/api/games/${encodeURIComponent(id)}/sgf`,
                             { headers: { "X-Boardai-Token": apiToken() }, credentials: "same-origin" });
    } catch (err) {
      throw new ApiError(`the server does not answer (${err.message})`);
    }
    if (!response.ok) {
      let why = response.statusText;
      try {
        why = (await response.json()).error || why;
      } catch (_) { /* not JSON: the status says it */ }
      throw new ApiError(why);
    }
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement("a");
    link.href = url;
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
  });
}

async function uploadSgf(event) {
  const file = event.target.files && event.target.files[0];
  event.target.value = "";
  if (!file) return;
  clearMessage();
  await guarded(async () => {
    const text = await file.text();
    const state = await api("POST", "/api/sgf", { sgf: text });
    await setGame(state);
    showMessage(`Opened ${file.name}`, "info");
  });
}

/* ---------------------------------------------------------------- arena */

function showTab(name) {
  for (const button of document.querySelectorAll("#tabs [data-tab]")) {
    button.setAttribute("aria-selected", String(button.dataset.tab === name));
  }
  $("#play").hidden = name !== "play";
  $("#arena").hidden = name !== "arena";
  if (name === "arena") loadStores();
}

function storeName(entry) {
  return typeof entry === "string" ? entry : entry.name;
}

async function loadStores() {
  const stores = await guarded(() => api("GET", "/api/stores"));
  if (!stores) return;
  app.stores = Array.isArray(stores) ? stores : stores.stores || [];
  const select = $("#store-select");
  const keep = select.value;
  select.innerHTML = "";
  select.appendChild(html("option", { value: "" }, app.stores.length ? "choose a store…" : "no stores"));
  for (const s of app.stores) {
    const name = storeName(s);
    select.appendChild(html("option", { value: name }, name));
  }
  $("#store-note").textContent = app.stores.length ? ""
    : "No arena stores: start the server with --store FILE (or put stores in its store directory).";
  if (keep && app.stores.some((s) => storeName(s) === keep)) select.value = keep;
  else if (app.stores.length === 1) select.value = storeName(app.stores[0]);
  if (select.value) loadStore(select.value);
}

function cellText(value) {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(2);
  if (Array.isArray(value)) return value.map(cellText).join(" ");
  if (typeof value === "object") return Object.entries(value).map(([k, v]) => `${k} ${cellText(v)}`).join(", ");
  return String(value);
}

/** A table of objects: one column per key (the keys of the first rows). */
function objectTable(rows, extraColumn = null) {
  const table = html("table", { class: "data" });
  const keys = [];
  for (const row of rows.slice(0, 20)) for (const k of Object.keys(row)) if (!keys.includes(k)) keys.push(k);
  const head = table.appendChild(html("thead")).appendChild(html("tr"));
  for (const k of keys) head.appendChild(html("th", {}, k.replace(/_/g, " ")));
  if (extraColumn) head.appendChild(html("th"));
  const body = table.appendChild(html("tbody"));
  rows.forEach((row, i) => {
    const tr = body.appendChild(html("tr"));
    for (const k of keys) tr.appendChild(html("td", {}, cellText(row[k])));
    if (extraColumn) tr.appendChild(html("td")).appendChild(extraColumn(row, i));
  });
  return table;
}

function matchKey(match) {
  return match.match_key ?? match.key ?? match.match ?? match.id;
}

function signed(x, digits = 0) {
  return `${x > 0 ? "+" : x < 0 ? "−" : ""}${Math.abs(x).toFixed(digits)}`;
}

/** One match as a table row: who, what, how many, score and Elo ± its 95% interval. */
function matchRow(m) {
  const key = matchKey(m);
  const row = { match: key ? String(key).slice(0, 8) : "" };
  row.A = m.engine_a ?? m.a ?? "";
  row.B = m.engine_b ?? m.b ?? "";
  row.game = [m.game, m.size].filter(Boolean).join(" ");
  row.games = m.games ?? "";
  if (m.wins_a !== undefined) row["A-B-draws"] = `${m.wins_a}-${m.wins_b}-${m.draws}`;
  if (typeof m.score === "number") row.score = m.score.toFixed(3);
  const elo = m.elo_diff ?? m.elo;
  const ci = m.elo_ci95 ?? m.interval;
  row["Elo A−B"] = typeof elo === "number"
    ? `${signed(elo, 1)}${typeof ci === "number" ? ` ± ${ci.toFixed(1)}` : ""}` : "–";
  if (m.reasons && typeof m.reasons === "object") {
    row["end reasons"] = Object.entries(m.reasons).map(([k, v]) => `${k} ${v}`).join(", ");
  }
  return row;
}

async function loadStore(name) {
  app.currentStore = name;
  $("#store-matches").innerHTML = "";
  $("#store-crosstable").innerHTML = "";
  $("#store-games").innerHTML = "";
  $("#store-games-match").textContent = "";
  if (!name) return;
  const data = await guarded(() => api("GET", `/api/stores/${encodeURIComponent(name)}`));
  if (!data || app.currentStore !== name) return;
  const matches = Array.isArray(data) ? data : data.matches || [];
  if (matches.length) {
    $("#store-matches").appendChild(objectTable(matches.map(matchRow), (row, i) => {
      const key = matchKey(matches[i]);
      const b = html("button", { type: "button", class: "small", "data-match": key }, "games");
      b.addEventListener("click", () => loadStoreGames(name, key));
      return b;
    }));
  } else {
    $("#store-matches").textContent = "no matches";
  }
  const cross = data.cross ?? data.crosstable ?? data.cross_table ?? null;
  if (cross && (!Array.isArray(cross) || cross.length)) {
    $("#store-crosstable").appendChild(crossTable(cross, data.engines));
  } else {
    $("#store-crosstable").textContent = "–";
  }
}

function crossCell(value) {
  if (value && typeof value === "object" && "points" in value) {
    return value.games ? `${cellText(value.points)}/${value.games}` : "";
  }
  return cellText(value);
}

/** The cross-table: row engine's points / games against the column engine.  `cross` is a
 *  square list of lists beside `engines`, or {engine: {engine: cell}}. */
function crossTable(cross, engines = null) {
  const table = html("table", { class: "data cross" });
  let players, cell;
  if (Array.isArray(cross)) {
    players = (engines || cross.map((_, i) => `#${i + 1}`)).map(String);
    cell = (i, j) => (cross[i] || [])[j];
  } else {
    players = Object.keys(cross);
    for (const p of Object.values(cross)) for (const q of Object.keys(p || {})) if (!players.includes(q)) players.push(q);
    cell = (i, j) => cross[players[i]]?.[players[j]];
  }
  const head = table.appendChild(html("thead")).appendChild(html("tr"));
  head.appendChild(html("th", {}, "points / games"));
  players.forEach((p, j) => head.appendChild(html("th", { title: p }, `${j + 1}`)));
  const body = table.appendChild(html("tbody"));
  players.forEach((p, i) => {
    const tr = body.appendChild(html("tr"));
    tr.appendChild(html("th", {}, `${i + 1}. ${p}`));
    players.forEach((_, j) => tr.appendChild(html("td", {}, i === j ? "·" : crossCell(cell(i, j)))));
  });
  return table;
}

async function loadStoreGames(name, key) {
  $("#store-games-match").textContent = key ? `(match ${String(key).slice(0, 8)})` : "";
  const query = key ? `?match=${encodeURIComponent(key)}` : "";
  const data = await guarded(() => api("GET", `/api/stores/${encodeURIComponent(name)}/games${query}`));
  if (!data) return;
  const games = Array.isArray(data) ? data : data.games || [];
  const box = $("#store-games");
  box.innerHTML = "";
  if (!games.length) {
    box.textContent = "no games";
    return;
  }
  const rows = games.map((g) => {
    const { match_key: _drop, ...rest } = g;
    return shortenGameRow(rest);
  });
  box.appendChild(objectTable(rows, (row, i) => {
    const g = games[i];
    const n = g.idx ?? g.n ?? g.index ?? i;
    const b = html("button", { type: "button", class: "small", "data-open": n }, "open");
    b.addEventListener("click", () => openStoredGame(name, n, g.match_key ?? key));
    return b;
  }));
}

function shortenGameRow(g) {
  const out = {};
  for (const [k, v] of Object.entries(g)) {
    out[k] = typeof v === "string" && v.length > 40 ? `${v.slice(0, 38)}…` : v;
  }
  return out;
}

async function openStoredGame(name, n, key = null) {
  await guarded(async () => {
    const query = key ? `?match=${encodeURIComponent(key)}` : "";
    const state = await api("POST",
      `/api/stores/${encodeURIComponent(name)}/games/${encodeURIComponent(n)}/open${query}`);
    await setGame(state);
    showTab("play");
    showMessage(`Replaying game ${n} of ${name}: ← → to step through it`, "info");
  });
}

/* ---------------------------------------------------------------- start-up */

function keyPressed(event) {
  const tag = (event.target.tagName || "").toLowerCase();
  if (["input", "select", "textarea"].includes(tag) || event.ctrlKey || event.metaKey || event.altKey) return;
  if ($("#play").hidden) return;
  const keys = { ArrowLeft: () => stepBy(-1), ArrowRight: () => stepBy(1),
                 Home: () => goToPly(0), End: () => goToPly(Infinity) };
  const action = keys[event.key];
  if (action) {
    event.preventDefault();
    action();
  }
}

function wireControls() {
  $("#new-game").addEventListener("submit", startNewGame);
  const board = $("#board");
  board.addEventListener("click", boardClicked);
  board.addEventListener("pointermove", boardPointer);
  board.addEventListener("pointerleave", () => { app.hoverColumn = null; renderOverlay(); });
  $("#btn-undo").addEventListener("click", () => gameAction("undo"));
  $("#btn-resign").addEventListener("click", () => gameAction("resign"));
  $("#btn-new").addEventListener("click", () => {
    const panel = $("#new-game-panel");
    panel.open = true;
    $("#ng-game").focus();
    panel.scrollIntoView({ block: "nearest" });
  });
  $("#btn-first").addEventListener("click", () => goToPly(0));
  $("#btn-prev").addEventListener("click", () => stepBy(-1));
  $("#btn-next").addEventListener("click", () => stepBy(1));
  $("#btn-last").addEventListener("click", () => goToPly(Infinity));
  $("#movelist").addEventListener("click", (event) => {
    const li = event.target.closest("li[data-ply]");
    if (li) goToPly(Number(li.dataset.ply));
  });
  $("#mistakes").addEventListener("click", (event) => {
    const li = event.target.closest("li[data-ply]");
    if (li) goToPly(Number(li.dataset.ply));
  });
  $("#analyse-toggle").addEventListener("change", analyseToggled);
  $("#analyse-engine").addEventListener("input", () => { app.engineEdited = true; });
  $("#heat-winrate").addEventListener("change", renderOverlay);
  $("#btn-review").addEventListener("click", reviewGame);
  $("#btn-solve").addEventListener("click", solvePosition);
  $("#sgf-upload").addEventListener("change", uploadSgf);
  $("#sgf-download").addEventListener("click", downloadSgf);
  for (const button of document.querySelectorAll("#tabs [data-tab]")) {
    button.addEventListener("click", () => showTab(button.dataset.tab));
  }
  $("#store-select").addEventListener("change", (event) => loadStore(event.target.value));
  $("#btn-store-refresh").addEventListener("click", loadStores);
  document.addEventListener("keydown", keyPressed);
  setInterval(renderClocks, 200);
}

/** The game to show first: the one in the address (#game=ID), else the newest open one,
 *  else a new Hex game against mcts. */
async function firstGame() {
  const wanted = new URLSearchParams(location.hash.slice(1)).get("game");
  if (wanted) {
    try {
      return await api("GET", `/api/games/${encodeURIComponent(wanted)}`);
    } catch (_) { /* gone: fall through */ }
  }
  try {
    const games = await api("GET", "/api/games");
    const open = (games || []).filter((g) => !g.over);
    if (open.length) return await api("GET", `/api/games/${encodeURIComponent(open[open.length - 1].id)}`);
  } catch (_) { /* fall through */ }
  return api("POST", "/api/games", newGameBody());
}

async function start() {
  document.body.classList.add("js");
  wireControls();
  await guarded(async () => {
    app.meta = await api("GET", "/api/meta");
    $("#version").textContent = app.meta.version ? `v${app.meta.version}` : "";
    fillNewGameForm();
  });
  if (!app.meta) return;
  const state = await guarded(firstGame);
  if (state) await setGame(state);
  document.body.dataset.ready = "1";
}

document.addEventListener("DOMContentLoaded", start);
