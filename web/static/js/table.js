/* The table display: announcement, deck left, bonus cards, round-end banner, standings. */
(function () {
  "use strict";
  const T = window.Tucana;
  const banner = T.notice();

  function renderBanner(state, loud) {
    if (state.phase === "finished") {
      banner.show(T.t("banner.game_over"), "over-" + state.game_id, loud);
    } else if (state.is_last_turn) {
      banner.show(T.t("banner.round_end", { n: state.round, box: T.ROMAN[state.round - 1] }),
        "round-" + state.game_id + "-" + state.round, loud);
    } else {
      banner.hide();
    }
  }

  /** At the end the scores are what the table looks at: they move to the top of the main column. */
  function placeStandings(finished) {
    const section = T.byId("standings-section");
    const home = document.querySelector(finished ? ".table-main" : ".table-side");
    if (section.parentElement === home) return;
    if (finished) home.prepend(section); else home.append(section);
  }

  let current = null;
  T.follow({
    state(state) {
      current = state;
      document.body.dataset.phase = state.phase;
      placeStandings(state.phase === "finished");
      T.renderAnnouncement(state);
      T.renderDeck(state);
      T.renderBonus(state);
      T.renderStandings(state, null);
      renderBanner(state, false);
    },
    events(events) {
      if (current && events.some((e) => e.type === "last_turn" || e.type === "game_ended")) renderBanner(current, true);
    },
  });
})();
