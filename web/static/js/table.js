/* The table display: announcement, deck left, bonus cards, round-end banner, standings. */
(function () {
  "use strict";
  const T = window.Tucana;
  const banner = T.byId("banner");

  function renderBanner(state) {
    if (state.phase === "finished") {
      banner.textContent = T.t("banner.game_over");
    } else if (state.is_last_turn) {
      banner.textContent = T.t("banner.round_end", { n: state.round, box: T.ROMAN[state.round - 1] });
    } else {
      banner.hidden = true;
      return;
    }
    banner.hidden = false;
  }

  T.follow({
    state(state) {
      T.renderAnnouncement(state);
      T.renderDeck(state);
      T.renderBonus(state);
      T.renderStandings(state, null);
      renderBanner(state);
    },
    events(events) {
      if (events.some((e) => e.type === "last_turn" || e.type === "game_ended")) {
        banner.classList.remove("flash");
        void banner.offsetWidth;  // restart the animation
        banner.classList.add("flash");
      }
    },
  });
})();
