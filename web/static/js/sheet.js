/* The island sheet on a phone: pick paper or sheet, then draw trails on the island.
   Tap a space, then an adjacent one. The engine says which segments are legal (state.island_sheets
   [me].legal): those glow, the rest of the island dims. Two fingers zoom and pan. No rule is
   decided here: a segment the engine refuses comes back with its reason. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, byId, show, cfg } = T;
  const me = cfg.me;
  const SVG_NS = "http://www.w3.org/2000/svg";
  const TAP_SLOP_PX = 10;  // a finger that moved less than this between down and up tapped
  const ZOOM_STEP = 1.6;  // one press of + or −
  const MAX_ZOOM = 5;  // at 5x a Grande hex is ~175 px wide on a 390 px phone: no need to go closer
  const STEPS = [[0, -2], [0, 2], [-1, -1], [-1, 1], [1, -1], [1, 1]];  // doubled-column neighbours

  const card = byId("island-card");
  const view = byId("sheet-view");
  const svg = view.querySelector("svg.island");
  const layer = (name) => svg.querySelector("g." + name);
  const fit = (() => { const b = svg.viewBox.baseVal; return { x: b.x, y: b.y, w: b.width, h: b.height }; })();
  const viewKey = "tucana-sheet-view-" + ((cfg.state && cfg.state.game_id) || 0) + "-" + me;
  const spaces = new Map();  // "r,c" -> {node, cx, cy, terrain}
  svg.querySelectorAll("polygon.hex").forEach((node) => spaces.set(node.dataset.space,
    { node, cx: Number(node.dataset.cx), cy: Number(node.dataset.cy), terrain: node.dataset.terrain }));

  let state = cfg.state;
  let picked = null;  // the first tapped space, "r,c"
  let sending = null;  // the segment posted and not answered yet: {a, b, bonus}
  let zoom = loadZoom();

  /* ---- what the state says about me ---- */

  /** Whether this phone holds the seat now (phone.js follows it over the stream). */
  function holdsSeat() { return T.phone ? T.phone.holdsSeat() : cfg.is_mine; }

  function mode() { return (state.seat_modes || {})[me] || "undecided"; }
  function engineMode() { return ((state.sheets || {})[me] || {}).mode || "undecided"; }
  function mySheet() { return (state.island_sheets || {})[me] || null; }
  function onSheet() { return mode() === "sheet"; }
  function canDraw() {
    const sheet = mySheet();
    return holdsSeat() && onSheet() && state.phase === "playing" && !sending && Boolean(sheet && sheet.legal.length);
  }
  function edgeKey(a, b) { return a < b ? a + "|" + b : b + "|" + a; }
  function legalKeys() {
    const sheet = mySheet();
    return new Set((sheet && canDraw() ? sheet.legal : []).map((e) => edgeKey(e[0] + "," + e[1], e[2] + "," + e[3])));
  }
  function adjacent(a, b) {
    const [r1, c1] = a.split(",").map(Number);
    const [r2, c2] = b.split(",").map(Number);
    return STEPS.some(([dr, dc]) => r1 + dr === r2 && c1 + dc === c2);
  }
  function pairNames() {
    const cards = state.announcement || ["any", "any"];
    return { a: T.terrainName(cards[0]), b: T.terrainName(cards[1]) };
  }

  /* ---- paper or sheet ---- */

  function renderPick() {
    const undecided = engineMode() === "undecided";
    show(byId("mode-pick"), holdsSeat() && undecided && state.phase !== "finished" && state.phase !== "no_game");
    ["paper", "sheet"].forEach((m) => byId("pick-" + m).setAttribute("aria-pressed", String(mode() === m)));
    byId("mode-pick").classList.toggle("picked", mode() !== "undecided");
    const said = { paper: t("sheet.picked_paper"), sheet: t("sheet.picked_sheet") };
    byId("mode-picked").textContent = said[mode()] || "";
  }

  async function pickMode(wanted) {
    const error = byId("mode-error");
    show(error, false);
    try {
      await T.api("POST", cfg.api.seat_mode, { mode: wanted });  // the stream brings the new state
    } catch (err) {
      error.textContent = err.message;
      show(error, true);
    }
  }
  ["paper", "sheet"].forEach((m) => byId("pick-" + m).addEventListener("click", () => pickMode(m)));

  /** On the sheet the island comes first, under the announcement; on paper it sits by the villages. */
  function placeCard() {
    const anchor = onSheet() ? byId("pad") : byId("villages-section");
    if (anchor && card.nextElementSibling !== anchor) anchor.parentElement.insertBefore(card, anchor);
    card.classList.toggle("drawing", onSheet());
    document.body.classList.toggle("on-sheet", onSheet());
  }

  /* ---- drawing the sheet ---- */

  function line(a, b, cls) {
    const p = spaces.get(a);
    const q = spaces.get(b);
    const node = document.createElementNS(SVG_NS, "line");
    node.setAttribute("x1", p.cx); node.setAttribute("y1", p.cy);
    node.setAttribute("x2", q.cx); node.setAttribute("y2", q.cy);
    node.setAttribute("class", cls);
    node.dataset.edge = edgeKey(a, b);
    return node;
  }

  function drawTrails() {
    const sheet = mySheet();
    const lines = (sheet && onSheet() ? sheet.segments : []).map((s) =>
      line(s[0] + "," + s[1], s[2] + "," + s[3], "trail" + (s[4] ? " bonus" : "")));
    if (sending) lines.push(line(sending.a, sending.b, "trail pending" + (sending.bonus ? " bonus" : "")));
    layer("trails").replaceChildren(...lines);
  }

  /** Legal segments glow (those from the picked space brighter); spaces no legal segment touches dim.
      A bonus segment may go anywhere: then only the picked space's segments glow, not the whole island. */
  function drawLegal() {
    const keys = legalKeys();
    const anywhere = (mySheet() || {}).bonus_due > 0;
    const touched = new Set();
    const lines = [];
    keys.forEach((key) => {
      const [a, b] = key.split("|");
      touched.add(a); touched.add(b);
      const near = picked && (a === picked || b === picked);
      if (anywhere && !near) return;
      lines.push(line(a, b, "glow" + (picked ? (near ? " near" : " far") : "")));
    });
    layer("legal").replaceChildren(...lines);
    const drawing = keys.size > 0;
    svg.classList.toggle("drawing", drawing);
    spaces.forEach((s, key) => {
      const partner = picked && keys.has(edgeKey(picked, key));
      s.node.classList.toggle("dim", drawing && (picked ? key !== picked && !partner : !touched.has(key)));
      s.node.classList.toggle("picked", key === picked);
      s.node.classList.toggle("partner", Boolean(partner));
    });
  }

  function markJoined() {
    const sheet = mySheet();
    const joined = new Set((sheet && onSheet() ? sheet.joined_sights : []).map((s) => s[0] + "," + s[1]));
    svg.querySelectorAll(".sight-ring").forEach((ring) => ring.classList.toggle("joined", joined.has(ring.dataset.space)));
    const letters = (state.village_letters || {})[me] || "";
    const pairs = onSheet() ? (((state.sheets || {})[me] || {}).villages || []) : [];
    svg.querySelectorAll(".village").forEach((g) => {
      const letter = letters[Number(g.dataset.village) - 1];
      g.classList.toggle("joined", Boolean(letter) && pairs.includes(letter));
    });
  }

  function renderScore() {
    show(byId("sheet-score"), onSheet() && state.phase !== "no_game");
    const sheet = (state.sheets || {})[me] || {};
    const standing = ((state.standings || {}).players || []).find((p) => p.name === me) || {};
    byId("sheet-sights").textContent = sheet.sight_points_now || 0;
    byId("sheet-villages").textContent = standing.villages || 0;
    byId("sheet-bonus").textContent = sheet.bonus || 0;
    byId("sheet-total").textContent = standing.total || 0;
  }

  function renderPrompt() {
    const prompt = byId("sheet-prompt");
    const sheet = mySheet();
    let text = "";
    let kind = "";
    if (!onSheet()) text = "";
    else if (state.phase === "finished") text = t("sheet.prompt_over");
    else if (!holdsSeat()) text = t("sheet.prompt_not_mine");
    else if (state.phase !== "playing" || !sheet) text = t("sheet.prompt_wait");
    else if (sending) text = t("sheet.sending");
    else if (sheet.bonus_due > 0) {
      kind = "bonus";
      text = sheet.bonus_due > 1 ? t("sheet.prompt_bonus_more", { n: sheet.bonus_due }) : t("sheet.prompt_bonus");
    } else if (sheet.nothing_to_draw) { kind = "nothing"; text = t("sheet.prompt_nothing", pairNames()); }
    else if (sheet.drawn) { kind = "drawn"; text = t("sheet.prompt_drawn"); }
    else if (picked) text = t("sheet.picked_space", { terrain: T.terrainName(spaces.get(picked).terrain) });
    else text = t("sheet.prompt_draw", pairNames());
    prompt.textContent = text;
    prompt.dataset.kind = kind;
    show(prompt, Boolean(text));
  }

  function fail(message) {
    const box = byId("sheet-error");
    box.textContent = message;
    show(box, Boolean(message));
  }

  function render(next) {
    if (next) state = next;
    if (picked && !canDraw()) picked = null;
    renderPick();
    placeCard();
    renderScore();
    drawTrails();
    drawLegal();
    markJoined();
    renderPrompt();
    show(byId("zoom-buttons"), onSheet());
  }

  /* ---- tapping ---- */

  function tap(space) {
    if (!canDraw() || !spaces.has(space)) return;
    fail("");
    if (!picked || space === picked) {
      picked = space === picked ? null : space;
    } else if (!adjacent(picked, space)) {
      picked = space;
    } else if (!legalKeys().has(edgeKey(picked, space))) {
      fail(mySheet().bonus_due > 0 ? t("sheet.already_drawn") : t("sheet.not_legal", pairNames()));
    } else {
      send(picked, space);
      return;
    }
    render();
  }

  async function send(a, b) {
    const bonus = mySheet().bonus_due > 0;
    const entry = { type: "trail", player: me, from: a.split(",").map(Number), to: b.split(",").map(Number), bonus };
    sending = { a, b, bonus };
    picked = null;
    render();
    try {
      const doc = await T.api("POST", cfg.api.events, entry);
      sending = null;
      if (doc && doc.state && T.phone) T.phone.apply(doc.state);
      if (doc && doc.events && T.phone) T.phone.events(doc.events, doc);  // at once, not after the stream
    } catch (err) {
      sending = null;
      // Lost on the way back? The stream shows the segment if it was drawn; nothing is sent twice.
      fail(t("sheet.refused", { reason: err.message }));
    }
    render();
  }

  /* ---- zoom and pan: two fingers, or the buttons ---- */

  function loadZoom() {
    try {
      const saved = JSON.parse(sessionStorage.getItem(viewKey) || "null");
      if (saved && saved.w > 0 && saved.w <= fit.w) return saved;
    } catch (err) { /* no storage: start with the whole island */ }
    return { x: fit.x, y: fit.y, w: fit.w };
  }

  function applyZoom() {
    zoom.w = Math.min(fit.w, Math.max(fit.w / MAX_ZOOM, zoom.w));
    const h = zoom.w * fit.h / fit.w;
    zoom.x = Math.min(fit.x + fit.w - zoom.w, Math.max(fit.x, zoom.x));
    zoom.y = Math.min(fit.y + fit.h - h, Math.max(fit.y, zoom.y));
    svg.setAttribute("viewBox", [zoom.x, zoom.y, zoom.w, h].map((v) => v.toFixed(2)).join(" "));
    svg.dataset.zoom = (fit.w / zoom.w).toFixed(2);
    try { sessionStorage.setItem(viewKey, JSON.stringify(zoom)); } catch (err) { /* fine without */ }
  }

  /** The island point under a screen point, for the view as it is now. */
  function toIsland(x, y) {
    const box = svg.getBoundingClientRect();
    return { x: zoom.x + (x - box.left) * zoom.w / box.width, y: zoom.y + (y - box.top) * zoom.w / box.width };
  }

  /** Zoom by factor keeping the island point under (x, y) on the screen where it is. */
  function zoomAt(factor, x, y, from) {
    const start = from || { zoom: Object.assign({}, zoom), at: toIsland(x, y) };
    const box = svg.getBoundingClientRect();
    zoom.w = start.zoom.w / factor;
    zoom.w = Math.min(fit.w, Math.max(fit.w / MAX_ZOOM, zoom.w));
    zoom.x = start.at.x - (x - box.left) * zoom.w / box.width;
    zoom.y = start.at.y - (y - box.top) * zoom.w / box.width;
    applyZoom();
  }

  function zoomButton(factor) {
    const box = svg.getBoundingClientRect();
    zoomAt(factor, box.left + box.width / 2, box.top + box.height / 2);
  }
  byId("zoom-in").addEventListener("click", () => zoomButton(ZOOM_STEP));
  byId("zoom-out").addEventListener("click", () => zoomButton(1 / ZOOM_STEP));
  byId("zoom-fit").addEventListener("click", () => { zoom = { x: fit.x, y: fit.y, w: fit.w }; applyZoom(); });

  const fingers = new Map();  // pointerId -> {x, y}
  let down = null;  // the first finger: where it went down and whether it moved
  let pinch = null;  // two fingers: the view, distance and midpoint when they landed

  function midpoint() {
    const [p, q] = [...fingers.values()];
    return { x: (p.x + q.x) / 2, y: (p.y + q.y) / 2, d: Math.hypot(p.x - q.x, p.y - q.y) || 1 };
  }

  view.addEventListener("pointerdown", (e) => {
    if (e.target.closest("button")) return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (fingers.size === 1) down = { x: e.clientX, y: e.clientY, moved: false, zoom: Object.assign({}, zoom) };
    if (fingers.size === 2) {
      const m = midpoint();
      pinch = { zoom: Object.assign({}, zoom), at: toIsland(m.x, m.y), d: m.d };
      if (down) down.moved = true;  // two fingers never tap
    }
  });

  view.addEventListener("pointermove", (e) => {
    if (!fingers.has(e.pointerId)) return;
    fingers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    if (pinch && fingers.size >= 2) {
      const m = midpoint();
      zoomAt(m.d / pinch.d, m.x, m.y, pinch);
    } else if (down && fingers.size === 1) {
      const dx = e.clientX - down.x;
      const dy = e.clientY - down.y;
      if (Math.hypot(dx, dy) > TAP_SLOP_PX) down.moved = true;
      if (down.moved && zoom.w < fit.w) {  // one finger pans an island that is zoomed in
        const scale = zoom.w / svg.getBoundingClientRect().width;
        zoom.x = down.zoom.x - dx * scale;
        zoom.y = down.zoom.y - dy * scale;
        applyZoom();
      }
    }
  });

  function lift(e, tapped) {
    if (!fingers.has(e.pointerId)) return;
    fingers.delete(e.pointerId);
    if (fingers.size < 2) pinch = null;
    if (fingers.size === 0) {
      if (tapped && down && !down.moved) {
        const hit = document.elementFromPoint(e.clientX, e.clientY);
        const space = hit && hit.closest && hit.closest("[data-space]");
        if (space) tap(space.dataset.space);
      }
      down = null;
    }
  }
  view.addEventListener("pointerup", (e) => lift(e, true));
  view.addEventListener("pointercancel", (e) => lift(e, false));

  applyZoom();
  T.sheet = { render, tap, zoomAt };
})();
