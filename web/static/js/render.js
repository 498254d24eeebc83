/* The renderers of what the engine computed: announcement, deck, bonus cards, standings.
   No rule is decided here: everything shown comes from the state the server sends. */
(function () {
  "use strict";
  const T = window.Tucana;
  const { cfg, t, el, icon, byId, show, TERRAINS, SIGHTS, LETTERS, ROMAN } = T;

  /* ---- renderers of engine results ---- */

  function terrainName(terrain) { return t("terrain." + terrain); }

  /** The Mayor's announcement in sentence case: "Desert and any terrain!", "¡Desierto y agua!". */
  function announcementWords(cards) {
    return T.sentence(t("announce.pair", { a: T.inSentence(terrainName(cards[0])), b: T.inSentence(terrainName(cards[1])) }));
  }

  function terrainCard(terrain, extra) {
    return el("div", { class: "terrain-card t-" + terrain }, icon(terrain), el("span", { class: "name" }, terrainName(terrain)), extra || null);
  }

  /** Round and turn pills plus the big announcement. */
  function renderAnnouncement(state) {
    const round = byId("round-label");
    const turn = byId("turn-label");
    const cards = byId("reveal-cards");
    const words = byId("words");
    const note = byId("announce-note");
    if (!words) return;
    if (T.renderSheetStatus) T.renderSheetStatus(state);
    cards.replaceChildren();
    show(turn, state.round > 0);
    note.textContent = "";
    if (state.phase === "no_game") {
      round.textContent = t("status.no_round");
      words.textContent = t("announce.no_game");
      return;
    }
    if (state.round === 0) {
      round.textContent = t("status.setup");
      words.textContent = t("announce.waiting");
      return;
    }
    round.textContent = t("status.round", { n: state.round, of: state.rounds });
    turn.textContent = t("status.turn", { n: state.turn, of: state.turns_per_round });
    if (state.announcement) {
      state.announcement.forEach((c) => cards.append(terrainCard(c)));
      words.textContent = announcementWords(state.announcement);
    }
    if (state.phase === "finished") note.textContent = t("announce.finished");
    else if (state.is_last_turn) note.textContent = t("announce.last_turn", { n: state.round });
  }

  function renderDeck(state) {
    const deck = byId("deck");
    if (!deck) return;
    deck.replaceChildren(...TERRAINS.map((terrain) => {
      const count = state.deck_left ? state.deck_left[terrain] : 0;
      const card = terrainCard(terrain, el("span", { class: "count" }, count));
      card.dataset.empty = String(count === 0);
      card.setAttribute("aria-label", t("deck.left_of", { n: count, terrain: terrainName(terrain) }));
      return card;
    }));
    const left = byId("cards-left");
    if (left) left.textContent = t("deck.cards_left", { n: state.cards_left });
  }

  function takers(state, kind, card) {
    return (state.bonus_taken || []).filter((b) => b.kind === kind && String(b.card) === String(card));
  }

  function tookLine(taken) {
    return el("div", { class: "took" }, taken.map((b) => t("bonus.took", { player: b.player, points: b.points })).join(" · "));
  }

  /** Blue bonus cards left (top first) and who took them; red cards likewise. */
  function renderBonus(state) {
    const blue = byId("blue");
    if (blue) {
      blue.replaceChildren(...LETTERS.map((letter) => {
        const values = (state.blue && state.blue[letter]) || [];
        const taken = takers(state, "blue", letter);
        return el("div", { class: "bonus" + (values.length ? "" : " gone") },
          el("div", { class: "head" }, el("span", {}, letter + "–" + letter),
            el("span", { class: "values" }, values.length ? values.join(" / ") : "—")),
          taken.length ? tookLine(taken) : null);
      }));
    }
    const red = byId("red");
    const drawn = redDrawn(state);
    show(byId("red-section"), drawn.length > 0);
    if (red) {
      red.replaceChildren(...drawn.map((sight) => {
        const left = state.red && sight in state.red;
        const taken = takers(state, "red", sight);
        return el("div", { class: "bonus red" + (left ? "" : " gone") },
          el("div", { class: "head" }, el("span", {}, icon(sight), " ", t("sight." + sight)),
            el("span", { class: "values" }, left ? state.red[sight] : "—")),
          taken.length ? tookLine(taken) : null);
      }));
    }
  }

  /** The red cards drawn this game (the engine's list), in the score pad's order of sights. */
  function redDrawn(state) {
    const drawn = state.red_drawn || [];
    return SIGHTS.filter((s) => drawn.includes(s));
  }

  /** Names as the page language lists them ("Mary and David", "Marie et David"). */
  function listNames(names) {
    try {
      return new Intl.ListFormat(cfg.lang || "en", { style: "long", type: "conjunction" }).format(names);
    } catch (err) {
      return names.join(", ");
    }
  }

  /** Standings table: rank, name, sights per round, villages, bonus, total; then the result. */
  function renderStandings(state, me) {
    const box = byId("standings");
    const section = byId("standings-section");
    const standings = state.standings;
    const visible = state.phase === "playing" || state.phase === "finished";
    show(section, Boolean(standings && standings.players && standings.players.length && visible));
    if (!box || !standings) return;
    const title = byId("standings-title");
    if (title) title.textContent = t(standings.finished ? "standings.final" : "standings.title");
    const rounds = state.rounds;
    // Narrow screens show the short headings; the Total column stays in view while the rest scrolls.
    const heading = (key, cls) => el("th", { scope: "col", class: cls || null },
      el("span", { class: "long" }, t(key)), el("abbr", { class: "short", title: t(key) }, t(key + "_short")));
    const head = el("tr", {}, el("th", { scope: "col", class: "rank" }, t("standings.rank")),
      el("th", { scope: "col", class: "name" }, t("standings.player")),
      ROMAN.slice(0, rounds).map((r) => el("th", { scope: "col", class: "detail" }, r)),
      heading("standings.villages", "detail"), heading("standings.bonus", "detail"), heading("standings.total", "total"));
    const rows = [...standings.players].sort((a, b) => a.rank - b.rank).map((p) => {
      const winner = standings.finished && standings.winners.includes(p.name);
      const cells = [el("td", { class: "rank" }, p.rank), el("td", { class: "name", title: p.name }, p.name)];
      for (let i = 0; i < rounds; i++) {
        cells.push(el("td", { class: "detail" }, i < p.sights_by_round.length ? p.sights_by_round[i] : "·"));
      }
      cells.push(el("td", { class: "detail" }, p.villages), el("td", { class: "detail" }, p.bonus),
        el("td", { class: "total" }, el("strong", {}, p.total)));
      const cls = [winner ? "winner" : "", p.name === me ? "me" : ""].join(" ").trim();
      return el("tr", { class: cls || null }, cells);
    });
    const table = el("div", { class: "table-scroll" }, el("table", { class: "standings" }, el("thead", {}, head), el("tbody", {}, rows)));
    if (!standings.finished) {
      box.replaceChildren(table, el("p", { class: "muted small" }, t("standings.so_far")));
      return;
    }
    const parts = [el("p", { class: "result", id: "result" }, resultText(standings)), table,
      ...tieLines(standings).map((line) => el("p", { class: "tie-break" }, line)), achievementList(standings, me)];
    box.replaceChildren(...parts.filter(Boolean));
  }

  /** "Mary wins!", a shared victory when the engine ranks several first, or a solo player's score. */
  function resultText(standings) {
    if (standings.players.length === 1) return t("standings.solo", { total: standings.players[0].total });
    if (standings.winners.length > 1) return t("standings.shared", { names: listNames(standings.winners) });
    return t("standings.winner", { name: standings.winners[0] || "" });
  }

  /** One line per group of equal totals: bonus points ranked them apart, or they share the rank. */
  function tieLines(standings) {
    const groups = new Map();
    standings.players.forEach((p) => groups.set(p.total, [...(groups.get(p.total) || []), p]));
    const best = (group) => Math.min(...group.map((p) => p.rank));
    return [...groups.values()].filter((group) => group.length > 1).sort((a, b) => best(a) - best(b)).map((group) => {
      const names = listNames(group.map((p) => p.name));
      const total = group[0].total;
      if (group.every((p) => p.rank === group[0].rank)) {
        return t("standings.tie_shared", { names, total, bonus: group[0].bonus });
      }
      const bonuses = listNames([...group].sort((a, b) => a.rank - b.rank).map((p) => t("standings.bonus_of", { name: p.name, bonus: p.bonus })));
      return t("standings.tie_bonus", { names, total, bonuses });
    });
  }

  /** Every achievement the engine gave, the phone's own player first. */
  function achievementList(standings, me) {
    const reached = standings.players.filter((p) => p.achievement)
      .sort((a, b) => (b.name === me) - (a.name === me) || a.rank - b.rank);
    if (!reached.length) return null;
    return el("ul", { class: "achievements", "aria-label": t("standings.achievements") }, reached.map((p) =>
      el("li", { class: p.name === me ? "me" : null }, icon("medal"),
        el("span", {}, el("strong", {}, p.name), " · ", t("standings.points", { total: p.total }), el("br"),
          el("span", { class: "achievement" }, achievementText(p))))));
  }

  function achievementText(player) {
    const key = "achievement." + player.achievement;
    const text = t(key);
    return text !== key ? text : (player.achievement_text || player.achievement);
  }

  Object.assign(T, {
    terrainName, terrainCard, announcementWords, achievementText, listNames,
    renderAnnouncement, renderDeck, renderBonus, renderStandings, redDrawn,
  });
})();
