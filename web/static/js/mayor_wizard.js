/* The Mayor console's new-game wizard: players in seat order, island and variants, set-up options.
   It only checks what a form can (names filled and unique, red cards picked); the engine decides. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, byId, show, cfg } = T;
  const MAX_PLAYERS = cfg.max_players;
  const NAME_MAX_CHARS = cfg.name_max_chars;  // the engine's cap (companion/names.py): the field stops there

  let step = 1;
  const playerInputs = byId("player-inputs");

  function addPlayerRow(name) {
    const count = playerInputs.children.length;
    if (count >= MAX_PLAYERS) return;
    const id = "player-" + (count + 1);
    const input = el("input", { type: "text", id, maxlength: String(NAME_MAX_CHARS), autocomplete: "off", value: name || "" });
    const remove = el("button", { type: "button", "aria-label": t("wizard.remove_player"), onclick: () => {
      if (playerInputs.children.length > 1) { row.remove(); relabel(); }
    } }, "×");
    const label = el("label", { for: id });
    const row = el("div", { class: "row" }, label, input, remove);
    playerInputs.append(row);
    relabel();
  }

  function relabel() {
    [...playerInputs.children].forEach((row, i) => {
      const label = row.querySelector("label");
      const input = row.querySelector("input");
      input.id = "player-" + (i + 1);
      label.htmlFor = input.id;
      label.textContent = i === 0 ? t("wizard.mayor_name") : t("wizard.player_name", { n: i + 1 });
    });
    byId("add-player").disabled = playerInputs.children.length >= MAX_PLAYERS;
    updateRedCount();
  }

  function playerNames() {
    return [...playerInputs.querySelectorAll("input")].map((i) => i.value.trim());
  }

  function wizardProblem() {
    const names = playerNames();
    if (step >= 1) {
      if (names.some((n) => !n)) return t("wizard.error_empty");
      if (new Set(names).size !== names.length) return t("wizard.error_unique");
    }
    if (step >= 2 && byId("special-bonus").checked) {
      const wanted = redWanted();
      if (chosenReds().length !== wanted) return t("wizard.error_red", { n: wanted });
    }
    return null;
  }

  function redWanted() { return cfg.red_counts[playerNames().length]; }

  function chosenReds() {
    return [...document.querySelectorAll('#red-choices input:checked')].map((i) => i.value);
  }

  function updateRedCount() {
    byId("red-count").textContent = t("wizard.red_count", { n: redWanted() });
  }

  function showStep(n) {
    step = n;
    document.querySelectorAll("#wizard-form fieldset").forEach((f) => { f.hidden = Number(f.dataset.step) !== n; });
    document.querySelectorAll("#wizard-steps li").forEach((li) => {
      if (Number(li.dataset.step) === n) li.setAttribute("aria-current", "step"); else li.removeAttribute("aria-current");
    });
    show(byId("wizard-back"), n > 1);
    show(byId("wizard-next"), n < 3);
    show(byId("wizard-start"), n === 3);
  }

  byId("add-player").addEventListener("click", () => {
    addPlayerRow("");
    playerInputs.lastElementChild.querySelector("input").focus();
  });
  byId("special-bonus").addEventListener("change", (e) => show(byId("red-pick"), e.target.checked));
  byId("wizard-back").addEventListener("click", () => showStep(Math.max(1, step - 1)));
  byId("wizard-next").addEventListener("click", () => {
    const problem = wizardProblem();
    if (problem) { T.mayor.fail(new Error(problem)); return; }
    T.mayor.clearError();
    showStep(step + 1);
  });
  byId("random-village").addEventListener("click", () => {
    // A table convenience like rolling a die; the engine only records the village chosen.
    byId("start-village").value = String(1 + Math.floor(Math.random() * cfg.villages));
  });

  byId("wizard-form").addEventListener("submit", async (e) => {
    e.preventDefault();
    const problem = wizardProblem();
    if (problem) { T.mayor.fail(new Error(problem)); return; }
    const form = e.target;
    const entry = {
      type: "new_game",
      players: playerNames(),
      island: form.island.value,
      special_bonus: byId("special-bonus").checked,
      start_village: Number(form.start_village.value),
      direction: form.direction.value,
      symmetric: form.symmetric.checked,
    };
    const started = await T.mayor.send(entry);
    if (!started) return;
    T.mayor.closeWizard();
    if (entry.special_bonus) await T.mayor.send({ type: "red_bonus", sights: chosenReds() });
  });

  /** Empty the wizard, keeping the last game's players as a start. */
  function resetWizard(previous) {
    playerInputs.replaceChildren();
    if (previous.length) previous.forEach((name) => addPlayerRow(name));
    else { addPlayerRow(""); addPlayerRow(""); }
    showStep(1);
  }

  T.wizard = { reset: resetWizard };
})();
