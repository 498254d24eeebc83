/* The Mayor's console: PIN, new-game wizard, set-up card, reveals (camera or one tap),
   confirm and undo, solo keep, end of game, export, and the guided deck enrollment.
   The game and the hardware both come over the one stream; nothing is polled. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, icon, byId, show, cfg } = T;
  const FOLD_KEY = "tucana-camera-folded";  // the camera panel stays folded across reloads (per browser)
  let state = cfg.state;
  // The pair Confirm would reveal: {cards: [a, b], source: "manual" | "camera", base}; base is the
  // turn key it was tapped for, or null when it was tapped while a reveal was on its way (it is for
  // the turn that reveal makes).
  let pending = null;
  let sending = null;  // the reveal posted and not answered yet: {cards, base}
  let wantWizard = false;
  let cropShown = 0;  // the number of the reading whose crop the console shows

  /* ---- errors and the PIN ---- */

  function fail(err) {
    const box = byId("mayor-error");
    box.textContent = err.message;
    show(box, true);
    box.scrollIntoView({ block: "nearest" });  // the error sits at the top: the Mayor may have scrolled away
    const code = err.doc && err.doc.code;
    if (err.status === 403 && (code === "wrong_pin" || code === "mayor_only")) lock();
  }

  function clearError() { show(byId("mayor-error"), false); }

  /** Post an entry and draw the answer; with expectSeq the server refuses it (409) if the log moved on. */
  async function post(entry, expectSeq) {
    const headers = expectSeq ? { "X-Expect-Seq": String(state.seq) } : undefined;
    const doc = await T.api("POST", cfg.api.events, entry, headers);
    if (doc && doc.state) render(doc.state);
    return doc;
  }

  /** Post an entry; the answer, or null after showing why it was refused. */
  async function send(entry, expectSeq) {
    clearError();
    try {
      return await post(entry, expectSeq);
    } catch (err) {
      fail(err);
      return null;
    }
  }

  function lock() {
    show(byId("pin-gate"), true);
    show(byId("console"), false);
    byId("pin").focus();
  }

  function unlock() {
    show(byId("pin-gate"), false);
    show(byId("console"), true);
    byId("pin-shown").textContent = cfg.pin ? t("tools.pin", { pin: cfg.pin }) : "";
  }

  byId("pin-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const error = byId("pin-error");
    show(error, false);
    try {
      const doc = await T.api("POST", cfg.api.mayor_login, { pin: byId("pin").value.trim() });
      byId("pin").value = "";
      cfg.pin = doc.pin;
      unlock();
      const wrong = doc.wrong_pins;
      if (wrong) {
        fail(new Error(t("mayor.wrong_pins", { n: wrong.count, address: wrong.last_address, time: T.clockTime(wrong.last_at) })));
      }
    } catch (err) {
      error.textContent = err.message;
      show(error, true);
    }
  });

  // Logging out ends the session on the Pi too: a copy of the cookie opens nothing afterwards.
  byId("mayor-logout").addEventListener("click", async () => {
    try { await T.api("POST", cfg.api.mayor_logout); } catch (err) { fail(err); return; }
    cfg.pin = null;
    lock();
  });

  /* ---- set-up card and red cards ---- */

  async function sendSetup(letters) {
    await send({ type: "setup_card", letters });
  }

  document.querySelectorAll("#setup-cards .setup-card").forEach((button) => {
    button.addEventListener("click", () => sendSetup(button.dataset.letters));
  });
  byId("setup-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const letters = byId("setup-letters").value.toUpperCase().replace(/[^A-E]/g, "");
    if (letters.length !== cfg.villages) { fail(new Error(t("setup.error_letters"))); return; }
    sendSetup(letters);
  });
  byId("red-setup-go").addEventListener("click", () => {
    const sights = [...document.querySelectorAll('#red-setup-choices input:checked')].map((i) => i.value);
    send({ type: "red_bonus", sights });
  });

  /* ---- reveals ---- */

  function pairsList() {
    const pairs = [];
    T.TERRAINS.forEach((a, i) => T.TERRAINS.slice(i).forEach((b) => pairs.push([a, b])));
    return pairs;
  }

  /** Why no reveal can be tapped now (the engine's next step, in words), or null. */
  function revealBlocked() {
    switch (state.next_step) {
      case "reveal": return null;
      case "solo_keep": return t("solo.help");
      case "end_game": return t("end.help");
      case "setup_card": case "red_bonus": return t("setup.help");
      default: return t("reveal.no_game");
    }
  }

  function renderPairs() {
    byId("pairs-grid").replaceChildren(...pairsList().map(([a, b]) => {
      const words = T.announcementWords([a, b]);
      return el("button", {
        type: "button", class: "pair-button", disabled: !revealable([a, b]),
        "aria-label": words, title: words, "data-cards": a + "," + b,
        onclick: () => pick([a, b]),
      }, el("span", { class: "t-" + a }, icon(a)), el("span", { class: "t-" + b }, icon(b)));
    }));
    byId("pending-empty").textContent = revealBlocked() || t("reveal.pick");
  }

  /** The turn a state shows, as one comparable key: a reveal, an undo of one or a new game changes it. */
  function turnKey(s) { return s.game_id + ":" + s.round + ":" + s.turn; }

  /** Whether the engine allows revealing this pair now (the deck has the cards, nothing comes first). */
  function revealable(cards) {
    return !revealBlocked() && (state.reveal_pairs || []).some(([a, b]) =>
      (a === cards[0] && b === cards[1]) || (a === cards[1] && b === cards[0]));
  }

  function pick(cards) {
    // Tapped while the last reveal is on its way and before its turn shows: the next reveal's pair.
    const early = sending && turnKey(state) === sending.base;
    pending = { cards, source: "manual", base: early ? null : turnKey(state) };
    renderPending();
  }

  /** A tapped pair lives for the turn it was tapped for; one tapped early adopts the turn it waited for. */
  function keepPending() {
    if (!pending || pending.source !== "manual") return;
    if (pending.base === null && !(sending && turnKey(state) === sending.base)) {
      pending.base = turnKey(state);
      if (!revealable(pending.cards)) pending = null;  // the new turn does not allow it (round over, deck)
    } else if (pending.base !== null && pending.base !== turnKey(state)) {
      pending = null;
    }
  }

  /** The reading the camera holds for the Mayor, in the page's words: why it waits. */
  function heldWhy(held) {
    return held.code ? T.said("refusal." + held.code, held.params) || held.reason : held.reason;
  }

  function renderPending() {
    const cards = byId("pending-cards");
    cards.replaceChildren();
    const blocked = revealBlocked();
    const held = pending && pending.source === "camera" ? pending.held : null;
    if (pending && !blocked) {
      pending.cards.forEach((c) => cards.append(T.terrainCard(c)));
      cards.append(el("p", { class: "muted small full-line" },
        pending.source === "camera" ? t("reveal.from_camera") : t("reveal.from_tap")));
    }
    // A reading the deck cannot hold says why it waits, and only what can be accepted is offered.
    const acceptable = Boolean(pending) && !blocked && revealable(pending.cards);
    byId("pending-why").textContent = held && !acceptable ? t("camera.held_why", { why: heldWhy(held) }) : "";
    show(byId("pending-why"), Boolean(held) && !acceptable && !blocked);
    show(byId("pending-empty"), !pending || Boolean(blocked));
    byId("confirm-reveal").disabled = !acceptable || Boolean(sending);
    byId("confirm-reveal").textContent = acceptable
      ? t("reveal.confirm_pair", { words: T.announcementWords(pending.cards) }) : t("reveal.confirm");
  }

  // One reveal at a time: Confirm stays disabled until the server answered, so a double tap
  // cannot post the same pair twice; X-Expect-Seq also makes the server refuse a stale repeat.
  // Whether tapped or read by the camera, a reveal takes one route: the log's (the desk hears it).
  byId("confirm-reveal").addEventListener("click", async () => {
    if (!pending || sending) return;
    const { cards, source } = pending;
    pending = null;
    const base = turnKey(state);
    sending = { cards, base };
    renderPending();
    let doc = null;
    try {
      clearError();
      doc = await postReveal(cards);
    } catch (err) {
      fail(err);
    } finally {
      sending = null;
      if (!doc && !pending && source === "manual" && turnKey(state) === base) {
        pending = { cards, source, base };  // refused: still picked, to retry or change
      }
      keepPending();
      renderPending();
    }
  });

  /** Post a reveal for the turn the Mayor sees; a claim that landed meanwhile is no reason to refuse it. */
  async function postReveal(cards) {
    const base = turnKey(state);
    try {
      return await post({ type: "reveal", cards }, true);
    } catch (err) {
      if (err.status !== 409) throw err;
      // The log moved on. Still this turn (only claims came in): this reveal is still meant, send
      // it once more on the newest seq. Another turn: a reveal landed, so this one is stale.
      await T.live.refetch();
      if (turnKey(state) !== base) throw err;
      return post({ type: "reveal", cards }, true);
    }
  }

  /* ---- camera ---- */

  async function desk(url) {
    clearError();
    try {
      const doc = await T.api("POST", url, {});
      if (doc && doc.accepted && doc.accepted.state) render(doc.accepted.state);
      if (doc) renderRig(doc);
      return doc;
    } catch (err) {
      fail(err);
      return null;
    }
  }

  byId("dismiss-reading").addEventListener("click", () => desk(cfg.api.camera_dismiss));
  byId("held-dismiss").addEventListener("click", () => desk(cfg.api.camera_dismiss));
  byId("held-confirm").addEventListener("click", () => desk(cfg.api.camera_confirm));
  byId("lay-next").addEventListener("click", () => desk(cfg.api.lay_next));

  function readingText(reading) {
    return reading.cards.map((r) => (r.card ? T.cardName(r.card) : "?") +
      " " + Math.round(r.confidence * 100) + "%").join(" + ");
  }

  /** The hardware's status, as the stream pushes it: last reading and its crop, held reading, note. */
  function renderRig(status) {
    const reading = status.reading;
    byId("camera-reading").textContent = reading ? readingText(reading) : t("camera.no_reading");
    const note = status.note ? T.said("camera.note." + status.note.key, status.note.params) : "";
    byId("camera-note").textContent = note || "";
    // No image before the first reading (the crop route has nothing to show yet); a new reading, a new crop.
    show(byId("camera-crop-figure"), Boolean(reading));
    if (reading && reading.number !== cropShown) {
      cropShown = reading.number;
      byId("camera-crop").src = cfg.api.crop + "?n=" + reading.number;
    }
    show(byId("lay-next"), status.virtual && Boolean(cfg.api.lay_next));
    renderHeld(status.pending);
  }

  /**
   * A reading the desk holds for the Mayor. A held reveal becomes the reveal panel's pair; a held
   * set-up card, red cards or solo keep shows here. Either says why it waits, and Confirm is there
   * only when the engine would now accept it.
   */
  function renderHeld(held) {
    const reveal = held && held.entry.type === "reveal";
    show(byId("held"), Boolean(held) && !reveal);
    show(byId("dismiss-reading"), Boolean(held) && Boolean(cfg.api.camera_dismiss));
    if (held && !reveal) {
      byId("held-what").textContent = T.mayorTools.describe(held.entry);
      byId("held-why").textContent = held.acceptable ? "" : t("camera.held_why", { why: heldWhy(held) });
      show(byId("held-confirm"), held.acceptable);
    }
    if (reveal && (!pending || pending.source === "camera")) {
      pending = { cards: held.entry.cards, source: "camera", held };
    } else if (!reveal && pending && pending.source === "camera") {
      pending = null;
    }
    renderPending();
  }

  function startCamera() {
    if (!cfg.has_camera) return;
    if (cfg.api.preview) byId("camera-preview").src = cfg.api.preview;
    const panel = byId("camera-panel");
    try { panel.open = localStorage.getItem(FOLD_KEY) !== "true"; } catch (err) { /* storage off: open */ }
    panel.addEventListener("toggle", () => {
      try { localStorage.setItem(FOLD_KEY, String(!panel.open)); } catch (err) { /* it just folds */ }
    });
  }

  /* ---- solo keep, end of game, undo, log ---- */

  function renderSolo() {
    const box = byId("solo-choices");
    const letters = Object.keys(state.blue || {}).filter((l) => (state.blue[l] || []).length);
    box.replaceChildren(...letters.map((letter) => el("label", {},
      el("input", { type: "checkbox", name: "solo", value: letter }), letter + "–" + letter + " (" + state.blue[letter].join("/") + ")")));
  }

  byId("solo-go").addEventListener("click", () => {
    const letters = [...document.querySelectorAll('#solo-choices input:checked')].map((i) => i.value);
    send({ type: "solo_keep", letters });
  });
  byId("end-go").addEventListener("click", () => {
    if (confirm(t("end.confirm"))) send({ type: "end_game" }, true);
  });
  byId("undo").addEventListener("click", () => {
    if (state.undo && confirm(T.mayorTools.undoQuestion(state.undo))) send({ type: "undo" }, true);
  });
  byId("new-game").addEventListener("click", openWizard);
  byId("wizard-open").addEventListener("click", () => {
    if (state.phase === "no_game" || state.phase === "finished" || confirm(t("wizard.confirm_abandon"))) openWizard();
  });

  function openWizard() {
    wantWizard = true;
    T.wizard.reset(state.players);
    render(state);
    byId("wizard").scrollIntoView({ behavior: "smooth" });
  }

  /* ---- everything from one state ---- */

  function render(next) {
    if (next.seq < state.seq && next.game_id === state.game_id) return;
    state = next;
    const phase = state.phase;
    const wizard = wantWizard || phase === "no_game";
    show(byId("wizard"), wizard);
    const needsCard = phase === "setup" && !state.setup_letters;
    show(byId("setup"), !wizard && needsCard);
    show(byId("red-setup"), !wizard && phase === "setup" && state.needs_red_bonus);
    show(byId("play"), !wizard && (phase === "playing" || (phase === "setup" && !needsCard && !state.needs_red_bonus)));
    show(byId("solo-keep"), state.needs_solo_keep);
    show(byId("end-game"), state.next_step === "end_game");
    show(byId("new-game"), phase === "finished" && !wizard);
    // Undo is offered only when the engine would take something back (never after the game ended).
    show(byId("undo"), Boolean(state.undo));
    byId("undo-what").textContent = state.undo ? T.mayorTools.undoQuestion(state.undo) : "";
    show(byId("wizard-open"), !wizard && phase !== "finished");  // the scores offer "New game" then
    show(byId("camera-panel"), Boolean(cfg.has_camera) && !wizard && (phase === "setup" || phase === "playing"));
    show(byId("seat-tools"), state.players.length > 0);
    if (byId("seat-tools").open) T.mayorTools.refreshSeats();
    byId("export").href = cfg.api.export || "#";
    show(byId("export"), state.game_id !== null);
    if (state.needs_solo_keep) renderSolo();
    // A new reveal (or game) drops a pair tapped for the turn before; players' claims must not.
    keepPending();
    T.renderAnnouncement(state);
    T.renderStandings(state, null);
    renderPairs();
    renderPending();
    renderBanner();
    T.mayorTools.refreshLog(state);
  }

  const banner = T.notice();

  function renderBanner() {
    if (state.phase === "playing" && state.is_last_turn) {
      banner.show(state.round === state.rounds
        ? t("banner.last_round_mayor", { n: state.round })
        : t("banner.round_end_mayor", { n: state.round }), "round-" + state.game_id + "-" + state.round);
    } else {
      banner.hide();
    }
  }

  T.mayor = {
    send, fail, clearError, render,
    closeWizard() { wantWizard = false; },
    get state() { return state; },
  };
  T.wizard.reset(state.players);
  if (cfg.is_mayor) unlock(); else lock();
  startCamera();
  T.follow({
    state: (next) => render(next),
    seats: () => { if (byId("seat-tools").open) T.mayorTools.refreshSeats(); },
    rig: cfg.has_camera ? renderRig : undefined,
  });
})();
