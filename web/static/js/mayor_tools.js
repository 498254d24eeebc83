/* The Mayor console's tools: the log and what an undo takes back, freeing a seat for a new phone,
   and the guided enrollment of the owner's own deck (one card at a time, captured by the camera
   through the API). */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, byId, show, cfg } = T;
  const LOG_SHOWN = 40;  // newest log lines the console lists: a round and its claims

  /* ---- the log and undo ---- */

  function sightName(sight) { return T.inSentence(t("sight." + sight)); }

  /** What an undo of this entry takes back, as the question the Mayor answers: "Undo Léa's toucan claim?". */
  function undoQuestion(entry) {
    switch (entry.type) {
      case "claim":
        if (entry.sight) return T.sentence(t("undo.claim_sight", { player: entry.player, sight: sightName(entry.sight) }));
        if (entry.village) return t("undo.claim_village", { player: entry.player, letter: entry.village });
        return T.sentence(t("undo.claim_red", { player: entry.player, sight: sightName(entry.red) }));
      case "reveal": return t("undo.reveal", { words: T.announcementWords(entry.cards) });
      case "trail": return t("undo.trail", { player: entry.player });
      case "setup_card": return t("undo.setup_card", { letters: entry.letters });
      case "red_bonus": return t("undo.red_bonus", { names: entry.sights.map((s) => t("sight." + s)).join(", ") });
      case "solo_keep": return t("undo.solo_keep", { letters: entry.letters.join(", ") });
      default: return t("tools.undo_confirm");
    }
  }

  function describe(entry) {
    switch (entry.type) {
      case "new_game": return t("log.new_game", { players: entry.players.join(", ") });
      case "setup_card": return t("log.setup_card", { letters: entry.letters });
      case "reveal": return T.announcementWords(entry.cards);
      case "claim":
        if (entry.sight) return t("log.claim", { player: entry.player, what: t("sight." + entry.sight) });
        if (entry.village) return t("log.claim", { player: entry.player, what: entry.village + "–" + entry.village });
        return t("log.claim", { player: entry.player, what: T.sentence(t("pad.red_pair", { sight: sightName(entry.red) })) });
      case "trail": return t(entry.bonus ? "sheet.log_bonus_trail" : "sheet.log_trail", { player: entry.player });
      case "red_bonus": return t("bonus.red") + ": " + entry.sights.map((s) => t("sight." + s)).join(", ");
      case "solo_keep": return t("solo.title") + ": " + entry.letters.join(", ");
      case "end_game": return t("end.button");
      case "undo": return t("tools.undo");
      default: return JSON.stringify(entry);
    }
  }

  /** The newest log lines, an entry an undo took back struck through and marked. */
  async function refreshLog(state) {
    if (!cfg.api.log || state.game_id === null) { byId("log").replaceChildren(); return; }
    try {
      const doc = await T.api("GET", cfg.api.log + "?since=" + Math.max(0, state.seq - LOG_SHOWN));
      byId("log").replaceChildren(...doc.entries.slice().reverse().map((e) => el("li",
        { value: String(e.seq), class: e.undone ? "undone" : null },
        describe(e.entry), e.undone ? el("span", { class: "undone-mark" }, " · " + t("log.undone")) : null)));
    } catch (err) { /* the log view is a convenience */ }
  }


  /* ---- seats ---- */

  /** "Seat 2 · David · in use · since 20:14 · used from 2 devices": a copied seat cookie shows. */
  function seatLine(seat, i) {
    const parts = [t("seats.seat", { n: i + 1 }), seat.player, seat.taken ? t("seats.in_use") : t("tools.seat_free")];
    if (seat.since) parts.push(t("tools.since", { time: T.clockTime(seat.since) }));
    if (seat.devices > 1) parts.push(t("tools.devices", { n: seat.devices }));
    return parts.join(" · ");
  }

  async function refreshSeats() {
    if (!cfg.api.seat_list || byId("seat-tools").hidden) return;
    try {
      const doc = await T.api("GET", cfg.api.seat_list);
      byId("seat-list").replaceChildren(...doc.seats.map((seat, i) => el("div", { class: "row" },
        el("span", { class: "grow" }, seatLine(seat, i)),
        seat.taken ? el("button", { type: "button", onclick: async () => {
          try { await T.api("POST", cfg.api.seat_free, { player: seat.player }); } catch (err) { T.mayor.fail(err); }
          refreshSeats();
        } }, t("tools.free")) : null)));
    } catch (err) { /* a convenience view */ }
  }
  byId("seat-tools").addEventListener("toggle", refreshSeats);

  /* ---- deck enrollment ---- */

  let enrollIndex = 0;
  let enrolled = {};  /* card ID -> photos of it in the owner's deck, as the server last said */
  let unread = [];  /* cards still without a photo in a kind partly enrolled: that kind is not read yet */
  const cardIds = cfg.card_ids || [];

  function renderEnroll() {
    enrollIndex = Math.max(0, Math.min(enrollIndex, cardIds.length - 1));
    const id = cardIds[enrollIndex];
    byId("enroll-progress").textContent = t("enroll.progress", { n: enrollIndex + 1, of: cardIds.length }) +
      " · " + t("enroll.photos", { n: enrolled[id] || 0 });
    byId("enroll-card").textContent = T.cardName(id);
    byId("enroll-back").disabled = enrollIndex === 0;
    byId("enroll-forget").disabled = !enrolled[id];
    byId("enroll-unread").textContent = unread.length ?
      t("enroll.unread", { cards: unread.map((c) => T.cardName(c)).join(", ") }) : "";
  }

  byId("enroll-open").addEventListener("click", async () => {
    show(byId("enroll"), true);
    byId("enroll-result").textContent = cfg.has_camera ? "" : t("enroll.no_camera");
    try {
      const doc = await T.api("GET", cfg.api.enroll);
      enrolled = doc.enrolled || {};
      unread = doc.unread || [];
      if (doc.next && cardIds.includes(doc.next)) enrollIndex = cardIds.indexOf(doc.next);
    } catch (err) { /* the walk through the cards works without the progress */ }
    renderEnroll();
    byId("enroll").scrollIntoView({ behavior: "smooth" });
  });
  byId("enroll-close").addEventListener("click", () => show(byId("enroll"), false));
  byId("enroll-back").addEventListener("click", () => { enrollIndex -= 1; renderEnroll(); });
  byId("enroll-skip").addEventListener("click", () => { enrollIndex += 1; renderEnroll(); });
  byId("enroll-capture").addEventListener("click", async () => {
    const id = cardIds[enrollIndex];
    const result = byId("enroll-result");
    try {
      const doc = await T.api("POST", cfg.api.enroll, { card: id });
      enrolled = doc.enrolled || enrolled;
      unread = doc.unread || unread;
      result.textContent = t("enroll.done", { card: T.cardName(id) }) + " " +
        t("enroll.photos", { n: doc.card_photos || 0 });
      if (enrollIndex < cardIds.length - 1) { enrollIndex += 1; renderEnroll(); }
      else { renderEnroll(); result.textContent += " " + t("enroll.finished"); }
    } catch (err) {
      result.textContent = err.message;
    }
  });
  byId("enroll-forget").addEventListener("click", async () => {
    const id = cardIds[enrollIndex];
    const result = byId("enroll-result");
    try {
      const doc = await T.api("DELETE", cfg.api.enroll + "/" + encodeURIComponent(id));
      enrolled = doc.enrolled || {};
      unread = doc.unread || [];
      result.textContent = t("enroll.forgotten", { card: T.cardName(id) });
      renderEnroll();
    } catch (err) {
      result.textContent = err.message;
    }
  });

  T.mayorTools = { refreshSeats, refreshLog, describe, undoQuestion };
})();
