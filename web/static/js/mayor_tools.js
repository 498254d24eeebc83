/* The Mayor console's tools: freeing a seat for a new phone, and the guided enrollment of the
   owner's own deck (one card at a time, captured by the camera through the API). */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, byId, show, cfg } = T;

  /* ---- seats ---- */

  async function refreshSeats() {
    if (!cfg.api.seat_list || byId("seat-tools").hidden) return;
    try {
      const doc = await T.api("GET", cfg.api.seat_list);
      byId("seat-list").replaceChildren(...doc.seats.map((seat, i) => el("div", { class: "row" },
        el("span", { class: "grow" }, t("seats.seat", { n: i + 1 }) + " · " + seat.player + " · " +
          (seat.taken ? t("seats.in_use") : t("tools.seat_free"))),
        seat.taken ? el("button", { type: "button", onclick: async () => {
          try { await T.api("POST", cfg.api.seat_free, { player: seat.player }); } catch (err) { T.mayor.fail(err); }
          refreshSeats();
        } }, t("tools.free")) : null)));
    } catch (err) { /* a convenience view */ }
  }
  byId("seat-tools").addEventListener("toggle", refreshSeats);

  /* ---- deck enrollment ---- */

  let enrollIndex = 0;
  const cardIds = cfg.card_ids || [];

  function renderEnroll() {
    enrollIndex = Math.max(0, Math.min(enrollIndex, cardIds.length - 1));
    const id = cardIds[enrollIndex];
    byId("enroll-progress").textContent = t("enroll.progress", { n: enrollIndex + 1, of: cardIds.length });
    byId("enroll-card").textContent = T.mayor.cardName(id);
    byId("enroll-back").disabled = enrollIndex === 0;
  }

  byId("enroll-open").addEventListener("click", () => {
    show(byId("enroll"), true);
    byId("enroll-result").textContent = cfg.has_camera ? "" : t("enroll.no_camera");
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
      result.textContent = (doc && doc.message) || t("enroll.done", { card: T.mayor.cardName(id) });
      if (enrollIndex < cardIds.length - 1) { enrollIndex += 1; renderEnroll(); }
      else result.textContent += " " + t("enroll.finished");
    } catch (err) {
      result.textContent = err.message;
    }
  });

  T.mayorTools = { refreshSeats };
})();
