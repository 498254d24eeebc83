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
        error.textContent = err.status === 409 ? t("seats.taken", { name: button.dataset.name }) : err.message;
        show(error, true);
        button.disabled = false;
      }
    });
  });

  // When the Mayor starts a game (or a new one), the list of seats changes: show the new one.
  T.follow({
    state(state) {
      const same = state.players.length === players.length && state.players.every((p, i) => p === players[i]);
      if (!same) location.reload();
    },
  });
})();
