/* The Mayor's console: PIN, new-game wizard, set-up card, reveals (camera or one tap),
   confirm and undo, solo keep, end of game, export, and the guided deck enrollment. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, icon, byId, show, cfg } = T;
  const CAMERA_POLL_MS = 1500;  // the scanner votes over a few frames: faster polling adds nothing
  const LOG_SHOWN = 40;  // newest log lines the console lists: a round and its claims
  let state = cfg.state;
  // The pair Confirm would reveal: {cards: [a, b], source: "manual" | "camera", base}; base is the
  // turn key it was tapped for, or null when it was tapped while a reveal was on its way (it is for
  // the turn that reveal makes).
  let pending = null;
  let sending = null;  // the reveal posted and not answered yet: {cards, base}
  let wantWizard = false;
  let lastReadingKey = null;

  /* ---- errors and the PIN ---- */

  function fail(err) {
    const box = byId("mayor-error");
    box.textContent = err.message;
    show(box, true);
    box.scrollIntoView({ block: "nearest" });  // the error sits at the top: the Mayor may have scrolled away
    if (err.status === 403 && /PIN/.test(err.message)) lock();
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

  function renderPending() {
    const cards = byId("pending-cards");
    cards.replaceChildren();
    const blocked = revealBlocked();
    if (pending && !blocked) {
      pending.cards.forEach((c) => cards.append(T.terrainCard(c)));
      cards.append(el("p", { class: "muted small full-line" },
        pending.source === "camera" ? t("reveal.from_camera") : t("reveal.from_tap")));
    }
    show(byId("pending-empty"), !pending || Boolean(blocked));
    byId("confirm-reveal").disabled = !pending || Boolean(blocked) || Boolean(sending);
    byId("confirm-reveal").textContent = pending && !blocked
      ? t("reveal.confirm_pair", { words: T.announcementWords(pending.cards) }) : t("reveal.confirm");
  }

  // One reveal at a time: Confirm stays disabled until the server answered, so a double tap
  // cannot post the same pair twice; X-Expect-Seq also makes the server refuse a stale repeat.
  byId("confirm-reveal").addEventListener("click", async () => {
    if (!pending || sending) return;
    const { cards, source } = pending;
    pending = null;
    const base = turnKey(state);
    sending = { cards, base };
    renderPending();
    let doc = null;
    try {
      doc = await confirmReveal(cards, source);
    } finally {
      sending = null;
      if (!doc && !pending && source === "manual" && turnKey(state) === base) {
        pending = { cards, source, base };  // refused: still picked, to retry or change
      }
      keepPending();
      renderPending();
    }
  });

  async function confirmReveal(cards, source) {
    if (cameraHolds && source === "camera" && cfg.api.camera_confirm) {
      // The desk holds the reading: confirming there keeps the button, LEDs and console in step.
      return desk(cfg.api.camera_confirm);
    }
    if (cameraHolds && cfg.api.camera_correct) {
      return desk(cfg.api.camera_correct, { type: "reveal", cards });  // the Mayor's tap wins
    }
    clearError();
    try {
      return await postReveal(cards);
    } catch (err) {
      fail(err);
      return null;
    }
  }

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

  let cameraHolds = false;  // the desk holds a reading waiting for the Mayor

  async function desk(url, body) {
    clearError();
    try {
      const doc = await T.api("POST", url, body || {});
      if (doc && doc.state) render(doc.state);
      else if (doc && "pending" in doc) renderReading(doc);
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

  async function pollCamera() {
    if (!cfg.has_camera || !cfg.api.camera || byId("console").hidden || document.hidden) return;
    try {
      renderReading(await T.api("GET", cfg.api.camera));
    } catch (err) { /* the manual buttons stay usable */ }
  }

  function readingText(readings) {
    return readings.map((r) => (r.card ? cardName(r.card) : "?") +
      (typeof r.confidence === "number" ? " " + Math.round(r.confidence * 100) + "%" : "")).join(" + ");
  }

  /** The camera's last reading and its crop; a pending reveal the desk holds becomes the console's. */
  function renderReading(status) {
    const text = byId("camera-reading");
    const readings = Array.isArray(status.last_reading) ? status.last_reading : [];
    const held = status.pending && status.pending.entry;
    cameraHolds = Boolean(held);
    // A held set-up card, red cards or solo keep: confirmed here; a held reveal goes to the reveal panel.
    show(byId("held"), Boolean(held) && held.type !== "reveal");
    if (held && held.type !== "reveal") {
      byId("held-what").textContent = describe(held) + (status.pending.reason ? " · " + t("camera.refused", { reason: status.pending.reason }) : "");
    }
    show(byId("dismiss-reading"), cameraHolds && Boolean(cfg.api.camera_dismiss));
    show(byId("lay-next"), Boolean(status.virtual) && Boolean(cfg.api.lay_next));
    const parts = [readings.length ? readingText(readings) : t("camera.no_reading")];
    if (status.pending && status.pending.reason) parts.push(t("camera.refused", { reason: status.pending.reason }));
    else if (status.note) parts.push(status.note);
    text.textContent = parts.join(" · ");
    const key = JSON.stringify([readings, status.pending]);
    if (key === lastReadingKey) return;
    lastReadingKey = key;
    if (cfg.api.crop && readings.length) byId("camera-crop").src = cfg.api.crop + "?t=" + Date.now();
    if (held && held.type === "reveal" && (!pending || pending.source === "camera")) {
      pending = { cards: held.cards, source: "camera" };
      renderPending();
    } else if (!held && pending && pending.source === "camera") {
      pending = null;
      renderPending();
    }
  }

  function startCamera() {
    if (!cfg.has_camera) return;
    if (cfg.api.preview) byId("camera-preview").src = cfg.api.preview;
    setInterval(pollCamera, CAMERA_POLL_MS);
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
    if (confirm(t("tools.undo_confirm"))) send({ type: "undo" }, true);
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

  function describe(entry) {
    switch (entry.type) {
      case "new_game": return t("log.new_game", { players: entry.players.join(", ") });
      case "setup_card": return t("log.setup_card", { letters: entry.letters });
      case "reveal": return T.announcementWords(entry.cards);
      case "claim":
        if (entry.sight) return t("log.claim", { player: entry.player, what: t("sight." + entry.sight) });
        if (entry.village) return t("log.claim", { player: entry.player, what: entry.village + "–" + entry.village });
        return t("log.claim", { player: entry.player, what: t("pad.red_pair", { sight: t("sight." + entry.red) }) });
      case "trail": return t(entry.bonus ? "sheet.log_bonus_trail" : "sheet.log_trail", { player: entry.player });
      case "red_bonus": return t("bonus.red") + ": " + entry.sights.map((s) => t("sight." + s)).join(", ");
      case "solo_keep": return t("solo.title") + ": " + entry.letters.join(", ");
      case "end_game": return t("end.button");
      case "undo": return t("tools.undo");
      default: return JSON.stringify(entry);
    }
  }

  async function refreshLog() {
    if (!cfg.api.log || state.game_id === null) { byId("log").replaceChildren(); return; }
    try {
      const doc = await T.api("GET", cfg.api.log + "?since=" + Math.max(0, state.seq - LOG_SHOWN));
      byId("log").replaceChildren(...doc.entries.slice().reverse().map((e) =>
        el("li", { value: String(e.seq) }, describe(e.entry))));
    } catch (err) { /* the log view is a convenience */ }
  }

  function cardName(id) {
    if (T.TERRAINS.includes(id)) return T.terrainName(id);
    let m = /^blue-([A-E])([12])$/.exec(id);
    if (m) return t("card.blue", { letter: m[1], n: m[2] });
    m = /^red-(\w+)$/.exec(id);
    if (m) return t("card.red", { sight: t("sight." + m[1]) });
    m = /^setup-(\d+)$/.exec(id);
    if (m) return t("setup.card", { n: Number(m[1]) });
    return id;
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
    show(byId("undo"), phase !== "no_game");
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
    refreshLog();
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

  T.mayor = { send, fail, clearError, cardName, closeWizard() { wantWizard = false; } };
  T.wizard.reset(state.players);
  if (cfg.is_mayor) unlock(); else lock();
  startCamera();
  T.follow({ state: (next) => render(next) });
})();
