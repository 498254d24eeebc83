/* A player's phone: village letters, the score pad (a tap on the next value is a claim),
   the live announcement, the round-end reminder with a buzz and a beep, final scores. The phone
   learns over the stream when its seat is freed or taken, and when the Mayor undoes its claim. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { t, el, icon, byId, show, cfg } = T;
  const me = cfg.me;
  let holdsSeat = cfg.is_mine;  // this phone holds me's seat (the server says so again on every seats event)
  let heldOnce = cfg.is_mine;  // it held the seat at some point: losing it is worth a notice
  const ROUND_END_BUZZ_MS = [250, 120, 250, 120, 400];  // buzz, pause, buzz, pause, long buzz: felt in a pocket
  let state = cfg.state;
  let pending = null;
  // Claims posted and not answered yet, each with what it circles ({sight, count} / {village} / {red}):
  // the pad draws them as made, so a second tap cannot repeat one while the next value stays open.
  const sending = [];

  /* ---- villages ---- */

  function renderVillages() {
    const letters = T.byName(state.village_letters).get(me) || "";
    show(byId("villages-waiting"), !letters);
    byId("villages").replaceChildren(...[...letters].map((letter, i) =>
      // "Village 10" does not fit a fifth of a phone: the number shows, the words are read out.
      el("div", { class: "village" }, el("span", { class: "no" },
        el("span", { class: "visually-hidden" }, t("phone.village", { n: i + 1 })), el("span", { "aria-hidden": "true" }, i + 1)),
        el("span", { class: "letter" }, letter))));
    document.querySelectorAll("svg.island .village").forEach((g) => {
      const n = Number(g.dataset.village);
      g.querySelector(".letter").textContent = letters ? letters[n - 1] : "";
    });
  }

  /* ---- the score pad ---- */

  /** A seat on the island sheet never taps claims: the engine derives them from its trails. */
  function onSheet() {
    return (state.seat_modes || {})[me] === "sheet";
  }

  function canClaim() {
    return holdsSeat && state.phase === "playing" && !onSheet();
  }

  function sightName(sight) { return T.inSentence(t("sight." + sight)); }

  function sheet() {
    return T.byName(state.sheets).get(me) || { sights: {}, villages: [], reds: [], bonus: 0, sights_by_round: [], sight_points_now: 0 };
  }

  /** My sheet with the claims on their way drawn in; the server's answer or the stream confirms them. */
  function padSheet() {
    const mine = sheet();
    if (!sending.length) return mine;
    const sights = Object.assign({}, mine.sights);
    const villages = [...mine.villages];
    const reds = [...mine.reds];
    for (const c of sending) {
      if (c.sight) sights[c.sight] = Math.max(sights[c.sight] || 0, c.count);
      if (c.village && !villages.includes(c.village)) villages.push(c.village);
      if (c.red && !reds.includes(c.red)) reds.push(c.red);
    }
    return Object.assign({}, mine, { sights, villages, reds });
  }

  function renderSights(pad, mine) {
    const rows = T.SIGHTS.map((sight) => {
      const values = pad.sights[sight];
      const count = mine.sights[sight] || 0;
      const cells = values.map((value, i) => {
        const circled = i < count;
        const next = i === count;
        const label = t("pad.sight_value", { sight: t("sight." + sight), value, n: i + 1 });
        return el("td", {}, el("button", {
          type: "button",
          class: "value" + (circled ? " circled" : "") + (next ? " next" : ""),
          disabled: !(next && canClaim()),
          "aria-label": label + (circled ? " ✓" : ""),
          "aria-pressed": String(circled),
          "data-sight": sight,
          onclick: () => ask({ sight }, T.sentence(t("pad.ask_sight", { sight: sightName(sight), value }))),
        }, value));
      });
      return el("tr", {}, el("th", { scope: "row" }, el("span", { class: "sight-name" }, icon(sight), t("sight." + sight))), cells);
    });
    const table = byId("sight-rows");
    table.replaceChildren(table.querySelector("caption"), el("tbody", {}, rows));
  }

  /** The bonus line under a pair: its points while the card is on the table, "gone" once taken. */
  function bonusHint(points, done) {
    if (done) return null;
    return points === undefined
      ? el("span", { class: "bonus-hint gone" }, t("pad.bonus_gone"))
      : el("span", { class: "bonus-hint" }, t("pad.bonus_hint", { points }));
  }

  function renderPairs(pad, sheet) {
    byId("pairs").replaceChildren(...T.LETTERS.map((letter) => {
      const done = sheet.villages.includes(letter);
      const top = (state.blue[letter] || [])[0];
      const question = t("pad.ask_village", { letter, points: pad.villages[letter] }) +
        (top === undefined ? " " + t("pad.no_bonus") : "");
      return el("button", {
        type: "button",
        class: "pair" + (done ? " circled" : ""),
        disabled: done || !canClaim(),
        "aria-pressed": String(done),
        "data-village": letter,
        onclick: () => ask({ village: letter }, question),
      }, el("span", { class: "letters" }, letter + "–" + letter), el("span", { class: "pts" }, pad.villages[letter]),
      bonusHint(top, done));
    }));
  }

  /** Red pairs show their points and a gone state like the blue pairs: a claim never pays 0 unannounced. */
  function renderReds(sheet) {
    const drawn = T.redDrawn(state);
    show(byId("reds-block"), drawn.length > 0);
    byId("reds").replaceChildren(...drawn.map((sight) => {
      const done = sheet.reds.includes(sight);
      const points = (state.red || {})[sight];
      const question = T.sentence(t("pad.ask_red", { sight: sightName(sight) })) +
        (points === undefined ? " " + t("pad.no_bonus") : "");
      return el("button", {
        type: "button",
        class: "red-claim" + (done ? " circled" : "") + (points === undefined && !done ? " gone" : ""),
        disabled: done || !canClaim(),
        "aria-pressed": String(done),
        "data-red": sight,
        onclick: () => ask({ red: sight }, question),
      }, el("span", { class: "red-name" }, icon(sight), icon(sight), " ", T.sentence(t("pad.red_pair", { sight: sightName(sight) }))),
      bonusHint(points, done));
    }));
  }

  function renderFinalBox(mine) {
    const standing = ((state.standings || {}).players || []).find((p) => p.name === me);
    const rows = [];
    for (let i = 0; i < state.rounds; i++) {
      let value = i < mine.sights_by_round.length ? mine.sights_by_round[i] : "—";
      if (i === mine.sights_by_round.length && state.phase === "playing") value = t("pad.now", { points: mine.sight_points_now });
      rows.push(el("span", {}, t("pad.sights_round", { roman: T.ROMAN[i] })), el("span", { "data-round": i + 1 }, value));
    }
    rows.push(el("span", {}, t("pad.villages")), el("span", {}, standing ? standing.villages : 0));
    rows.push(el("span", {}, t("pad.bonus")), el("span", {}, mine.bonus));
    rows.push(el("span", { class: "total" }, t("pad.total")), el("span", { class: "total", id: "my-total" }, standing ? standing.total : 0));
    if (state.phase === "finished" && standing && standing.achievement) {
      rows.push(el("p", { class: "my-achievement", id: "my-achievement" }, icon("medal"), T.achievementText(standing)));
    }
    byId("final-box").replaceChildren(...rows);
  }

  function renderPad() {
    const pad = state.score_pad;
    show(byId("pad"), Boolean(pad));
    if (!pad) return;
    const mine = padSheet();
    renderSights(pad, mine);
    renderPairs(pad, mine);
    renderReds(mine);
    renderFinalBox(mine);
    byId("pad-help").textContent = state.phase === "playing"
      ? (holdsSeat ? t(onSheet() ? "sheet.picked_sheet" : "pad.help") : t("phone.not_mine"))
      : (state.phase === "finished" ? t("pad.help_finished") : t("pad.help_before"));
  }

  /* ---- claims ---- */

  function ask(what, question) {
    pending = what;
    byId("confirm-what").textContent = question;
    show(byId("confirm"), true);
    byId("confirm-yes").focus();
  }

  function closeAsk() {
    pending = null;
    show(byId("confirm"), false);
  }

  async function claim() {
    const what = pending;
    if (!what) return;
    const entry = Object.assign({ type: "claim", player: me }, what);
    closeAsk();
    // A sight claim circles the next value: the one after those drawn now, claims on their way included.
    const made = what.sight ? { sight: what.sight, count: (padSheet().sights[what.sight] || 0) + 1 } : what;
    sending.push(made);
    renderPad();
    const error = byId("claim-error");
    show(error, false);
    try {
      const doc = await T.api("POST", cfg.api.claim, entry);
      if (doc && doc.state) follower.apply(doc.state, doc);
      if (doc && doc.events) onEvents(doc.events, doc);
    } catch (err) {
      error.textContent = t("pad.refused", { reason: err.message });
      show(error, true);
      error.scrollIntoView({ block: "nearest" });  // the refusal shows where the player tapped
    } finally {
      sending.splice(sending.indexOf(made), 1);
      renderPad();
    }
  }

  byId("confirm-yes").addEventListener("click", claim);
  byId("confirm-no").addEventListener("click", closeAsk);
  document.addEventListener("keydown", (e) => { if (e.key === "Escape") closeAsk(); });

  /* ---- round-end reminder ---- */

  const banner = T.notice();

  /**
   * A notice at the top of the phone: a loud one flashes, buzzes and beeps. It never scrolls the
   * page: the player may be tapping or drawing, and nothing may move under a finger.
   */
  function remind(text, key, loud) {
    if (!banner.show(text, key, loud, false) || !loud) return;
    if (navigator.vibrate) navigator.vibrate(ROUND_END_BUZZ_MS);
    T.beep();
  }

  function roundEndText() {
    return t("banner.round_end_phone", { n: state.round, box: T.ROMAN[state.round - 1], points: sheet().sight_points_now });
  }

  function renderBanner(loud) {
    if (state.phase === "finished") {
      remind(t("banner.game_over"), "over-" + state.game_id, loud);
    } else if (state.is_last_turn) {
      remind(roundEndText(), "round-" + state.game_id + "-" + state.round, loud);
    } else if (banner.key && !/^(segment|undone)-/.test(banner.key)) {  // those stay until put away
      banner.hide();
    }
  }

  /** What a claim circled, in words: "toucan", "A–A", "two yetis". */
  function claimWords(entry) {
    if (entry.sight) return sightName(entry.sight);
    if (entry.village) return entry.village + "–" + entry.village;
    return T.inSentence(t("pad.red_pair", { sight: sightName(entry.red) }));
  }

  // What an entry caused comes twice (the request's answer and the stream): said once, whichever
  // comes first, so a notice never appears a moment after the redraw that the player acts on.
  let eventsSeen = { game: null, seq: 0 };

  function onEvents(events, doc) {
    if (doc && doc.game_id === eventsSeen.game && doc.seq <= eventsSeen.seq) return;
    if (doc) eventsSeen = { game: doc.game_id, seq: doc.seq };
    for (const event of events) {
      if (event.type === "claimed" && event.player === me && event.bonus_segment) {
        remind(t("banner.bonus_segment"), "segment-" + state.seq, true);
      }
      if (event.type === "undone" && event.entry.type === "claim" && event.entry.player === me) {
        remind(t("phone.claim_undone", { what: claimWords(event.entry) }), "undone-" + state.seq, true);
      }
    }
    if (events.some((e) => e.type === "last_turn" || e.type === "game_ended")) renderBanner(true);
  }

  /* ---- the seat ---- */

  /** Whether this phone still holds its seat: asked when the stream says a seat was taken or freed. */
  let seatChecks = 0;  // a slow answer to an older check must not undo what a newer one found
  async function checkSeat() {
    const mine = ++seatChecks;
    let doc;
    try { doc = await T.api("GET", cfg.api.seat_list); } catch (err) { return; }
    if (mine !== seatChecks) return;
    const seat = doc.seats.find((s) => s.player === me);
    const holds = Boolean(seat && seat.mine);
    const note = byId("seat-lost");
    heldOnce = heldOnce || holds;
    // A seat this phone held and lost: freed by the Mayor, then perhaps taken by another phone.
    note.textContent = !holds && heldOnce ? t(seat && seat.taken ? "phone.seat_taken" : "phone.seat_freed", { name: me }) : "";
    show(note, !holds && heldOnce);
    if (holds) show(byId("not-mine"), false);
    if (holds === holdsSeat) return;
    holdsSeat = holds;
    renderPad();
  }


  /* ---- everything from one state ---- */

  function render(next) {
    if (state && next.game_id !== state.game_id && state.game_id !== null) {
      // A new game: the island may differ, so the page is drawn afresh. With the same players in
      // the same seats the Mayor may keep every phone on its seat: this page's seat, then.
      const seat = next.players.indexOf(me) + 1;
      const same = next.players.length === state.players.length && next.players.every((p, i) => p === state.players[i]);
      location.href = same && seat === cfg.seat ? cfg.play_url.replace(/0$/, String(seat)) : cfg.seats_url;
      return;
    }
    state = next;
    T.renderAnnouncement(state);
    T.renderBonus(state);
    T.renderStandings(state, me);
    if (state.phase === "finished") {
      byId("main").insertBefore(byId("standings-section"), byId("me"));
      // Nothing more to claim: the final screen shows the scores, not play-time hints.
      show(byId("not-mine"), false);
    }
    renderVillages();
    renderPad();
    if (T.sheet) T.sheet.render(state);
    renderBanner(false);
  }

  const follower = T.follow({
    state: (next) => render(next),
    events: onEvents,
    seats: (doc) => { if (doc.game_id === state.game_id) checkSeat(); },
    // A seat may have changed while the stream was away (asleep, or the page still loading).
    connected: checkSeat,
  });
  T.phone = { apply: follower.apply, events: onEvents, holdsSeat: () => holdsSeat };
})();
