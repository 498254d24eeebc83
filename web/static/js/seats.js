/* Seat picking: take a seat (the API gives this phone a token cookie), then open its pad. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, byId, show, cfg } = T;
  const players = (cfg.state && cfg.state.players) || [];

  document.querySelectorAll("#seats button[data-seat]").forEach((button) => {
    button.addEventListener("click", async () => {
      const error = byId("seat-error");
      show(error, false);
      button.disabled = true;
      try {
        await T.api("POST", cfg.api.seats, { player: button.dataset.name });
        location.href = cfg.play_url.replace(/0$/, button.dataset.seat);
      } catch (err) {
        error.textContent = err.message;
        show(error, true);
        button.disabled = false;
      }
    });
  });

  /** Mark the seats another phone already holds (the Mayor can free them). */
  async function markTaken() {
    if (!cfg.api.seat_list) return;
    try {
      const doc = await T.api("GET", cfg.api.seat_list);
      doc.seats.forEach((seat, i) => {
        const button = document.querySelector(`#seats button[data-seat="${i + 1}"]`);
        if (!button) return;
        const note = button.querySelector(".seat-no");
        note.dataset.base = note.dataset.base || note.textContent;
        note.textContent = note.dataset.base + (seat.mine ? " · " + t("seats.yours") : seat.taken ? " · " + t("seats.in_use") : "");
      });
    } catch (err) { /* the buttons work without the marks */ }
  }
  markTaken();

  // When the Mayor starts a game (or a new one), the list of seats changes: show the new one.
  // A seat taken or freed elsewhere shows at once.
  T.follow({
    state(state) {
      const same = state.players.length === players.length && state.players.every((p, i) => p === players[i]);
      if (!same) location.reload();
    },
    seats: markTaken,
  });
})();
