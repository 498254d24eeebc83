/* The island sheets at a glance, on every page: who has drawn this turn, and whom the Mayor
   waits for. Everything comes from the state (seat_modes, waiting_for, island_sheets). */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, byId, show } = T;

  const STATUS_TEXT = {
    drawn: "sheet.status_drawn", drawing: "sheet.status_drawing", bonus: "sheet.status_bonus", nothing: "sheet.status_nothing",
  };

  /** drawn, bonus, nothing or drawing: where a sheet seat is in this turn. */
  function status(sheet) {
    if (!sheet) return "drawing";
    if (sheet.bonus_due > 0) return "bonus";
    if (sheet.nothing_to_draw) return "nothing";
    return sheet.drawn ? "drawn" : "drawing";
  }

  /** The sheet seats of the game, in seat order. */
  function sheetSeats(state) {
    const modes = state.seat_modes || {};
    return (state.players || []).filter((p) => modes[p] === "sheet");
  }

  /** Chips under the announcement, and the console's "waiting for" line above its reveal button. */
  function renderSheetStatus(state) {
    const names = sheetSeats(state);
    const playing = state.phase === "playing" && state.round > 0;
    const box = byId("sheet-status");
    if (box) {
      show(box, playing && names.length > 0);
      const sheets = state.island_sheets || {};
      box.replaceChildren(...(playing ? [el("span", { class: "small muted" }, t("sheet.status_title")),
        ...names.map((name) => {
          const now = status(sheets[name]);
          return el("span", { class: "sheet-chip", "data-player": name, "data-status": now },
            el("strong", {}, name), " ", t(STATUS_TEXT[now]));
        })] : []));
    }
    const waiting = byId("waiting-for");
    if (waiting) {
      const left = state.waiting_for || [];
      waiting.textContent = left.length ? t("sheet.waiting_for", { names: T.listNames(left) }) : t("sheet.all_drawn");
      waiting.dataset.waiting = String(left.length > 0);
      show(waiting, playing && names.length > 0);
    }
  }

  Object.assign(T, { renderSheetStatus, sheetStatus: status });
})();
