/* Shared by every page: text, safe DOM building, the JSON API and its refusals in the page's
   language, the live stream, the page's notice and the beep. The renderers of what the engine
   computed are in render.js. */
(function () {
  "use strict";

  const cfg = JSON.parse(document.getElementById("tucana-config").textContent || "{}");
  const TEXT = cfg.i18n || {};
  const TERRAINS = ["desert", "forest", "mountain", "water", "any"];
  const SIGHTS = ["obelisk", "book", "toucan", "yeti", "sea_monster"];
  const LETTERS = ["A", "B", "C", "D", "E"];
  const ROMAN = ["I", "II", "III", "IV"];
  const SVG_NS = "http://www.w3.org/2000/svg";
  // After the browser gives up on a stream (EventSource CLOSED), reopen it this long after, in ms.
  const REOPEN_MS = 3000;
  const BEEP_HZ = 880;  // A5: cuts through table talk without being shrill
  const BEEP_STARTS_S = [0, 0.25];  // two short beeps, a quarter of a second apart
  const BEEP_S = 0.2;  // each beep's length; its gain rises in 20 ms and fades by 180 ms
  const BEEP_GAIN = 0.3;  // loud enough to notice, well below clipping
  // A state-changing request whose answer got lost (Wi-Fi dropped, the Pi restarting) is sent
  // again after these waits, in ms, with the same Idempotency-Key: the server answers what it
  // did the first time instead of doing it twice. Three tries span the ~5 s of a restart.
  // Only a request with no answer at all is retried: any answer is the server's word on it.
  const RETRY_WAITS_MS = [500, 1500, 3000];

  /** The text for key with {name} placeholders filled in. */
  function t(key, params) {
    const template = has(key) ? TEXT[key] : key;
    if (!params) return template;
    return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
  }

  function has(key) { return Object.prototype.hasOwnProperty.call(TEXT, key); }

  /** Sentence case: the first letter up ("¡desierto y agua!" -> "¡Desierto y agua!"), the rest as it is. */
  function sentence(text) {
    return text.replace(/\p{L}/u, (letter) => letter.toUpperCase());
  }

  /** A name as it stands inside a sentence: the catalogue writes names capitalised, as labels. */
  function inSentence(name) {
    return name.charAt(0).toLowerCase() + name.slice(1);
  }

  /** A card ID as this page's language names it ("blue-C2" -> "Blue bonus C #2"); the server names them. */
  function cardName(id) {
    return (cfg.card_names && cfg.card_names[id]) || (has("terrain." + id) ? t("terrain." + id) : id);
  }

  // Parameters of a refusal or a note that name game things: each page says them in its language.
  const NAMED_PARAMS = {
    terrain: (v) => inSentence(t("terrain." + v)),
    other: (v) => inSentence(t("terrain." + v)),
    a_terrain: (v) => inSentence(t("terrain." + v)),
    b_terrain: (v) => inSentence(t("terrain." + v)),
    sight: (v) => inSentence(t("sight." + v)),
    island: (v) => t("island." + v),
    card: cardName,
    wanted: cardName,
    cards: (v) => v.map(cardName).join(", "),
  };

  /** A coded message ({key or code, params}) in this page's language, or null when the page has no words for it. */
  function said(key, params) {
    if (!has(key)) return null;
    const shown = {};
    for (const [name, value] of Object.entries(params || {})) {
      shown[name] = NAMED_PARAMS[name] ? NAMED_PARAMS[name](value) : value;
    }
    return sentence(t(key, shown));
  }

  /** Why the server refused, in the page's language when it gave a code, else its own words. */
  function refusalText(doc, status) {
    if (doc && doc.code) {
      const text = said("refusal." + doc.code, doc.params);
      if (text) return text;
    }
    return (doc && doc.error) || t("error.http", { status });
  }

  /** Build an element; strings become text nodes, so player names are never parsed as HTML. */
  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) {
      if (value === false || value === null || value === undefined) continue;
      if (name === "class") node.className = value;
      else if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name, value === true ? "" : value);
    }
    for (const child of children.flat()) {
      if (child === null || child === undefined || child === false) continue;
      node.append(child instanceof Node ? child : document.createTextNode(String(child)));
    }
    return node;
  }

  /** An icon from the inline sprite. */
  function icon(name) {
    const svg = document.createElementNS(SVG_NS, "svg");
    svg.setAttribute("class", "icon");
    svg.setAttribute("aria-hidden", "true");
    const use = document.createElementNS(SVG_NS, "use");
    use.setAttribute("href", "#i-" + name);
    svg.append(use);
    return svg;
  }

  function byId(id) { return document.getElementById(id); }

  function show(node, visible) { if (node) node.hidden = !visible; }

  function readCookie(name) {
    const hit = document.cookie.split("; ").find((part) => part.startsWith(name + "="));
    return hit ? decodeURIComponent(hit.slice(name.length + 1)) : null;
  }

  /** A fresh request id: 32 random hex digits (crypto.randomUUID needs https, the Pi serves http). */
  function requestId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
  }

  function pause(ms) { return new Promise((resolve) => setTimeout(resolve, ms)); }

  /**
   * Call the JSON API; resolves to the parsed body, rejects with the server's error message.
   * A call that changes something is one user action: it carries one Idempotency-Key, kept when
   * the call is retried after a lost answer.
   */
  async function api(method, url, body, extraHeaders) {
    const headers = Object.assign({ Accept: "application/json" }, extraHeaders || {});
    if (body !== undefined) headers["Content-Type"] = "application/json";
    const token = readCookie(cfg.csrf_cookie);
    const changes = method !== "GET";
    if (token && changes) headers[cfg.csrf_header] = token;
    if (changes) headers["Idempotency-Key"] = requestId();
    const waits = changes ? RETRY_WAITS_MS : [];
    let response = null;
    for (let attempt = 0; ; attempt++) {
      try {
        response = await fetch(url, {
          method, headers, credentials: "same-origin",
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      } catch (err) {
        response = null;
      }
      if (response || attempt >= waits.length) break;
      await pause(waits[attempt]);
    }
    if (!response) {
      if (window.Tucana.live) window.Tucana.live.lost();  // the Pi is out of reach: the page says so
      throw Object.assign(new Error(t("error.network")), { status: 0 });
    }
    let doc = null;
    try { doc = await response.json(); } catch (err) { doc = null; }
    if (!response.ok) {
      throw Object.assign(new Error(refusalText(doc, response.status)), { status: response.status, doc });
    }
    return doc;
  }

  /* ---- live stream ---- */

  const statusText = { live: "live.live", connecting: "live.connecting", down: "live.down" };

  /**
   * Show the stream's state: live, connecting (the first time), or down (the Pi was reached and is
   * not now). Down greys out what can be tapped (CSS on body[data-live]) under a reconnecting banner.
   */
  function setLive(status) {
    document.body.dataset.live = status;
    const node = byId("live");
    if (node) {
      node.dataset.status = status;
      node.querySelector(".live-text").textContent = t(statusText[status]);
    }
    const banner = byId("offline");
    if (banner) show(banner, status === "down");
  }

  /**
   * Follow the game: handlers.state(state, doc) for each new state, handlers.events(events, doc)
   * for what an entry caused (live entries only, not catch-up), handlers.seats(doc) when a seat is
   * taken or freed, handlers.rig(status) for the hardware (the console), handlers.connected(hello)
   * each time the stream (re)connects. Reconnects with the last seen sequence number when a
   * sleeping phone wakes up.
   */
  function follow(handlers) {
    let source = null;
    let current = cfg.state || null;
    let retryTimer = null;
    let openedFor = null;  // the game id in the stream's URL
    let wasLive = false;  // a stream that drops after being live is the Pi going out of reach

    function apply(state, doc) {
      if (!state) return;
      const newer = !current || state.game_id !== current.game_id || state.seq >= current.seq;
      if (!newer) return;
      current = state;
      handlers.state(state, doc);
    }

    async function refetch() {
      try { apply(await api("GET", cfg.api.state), null); } catch (err) { setLive("down"); }
    }

    function live() { wasLive = true; setLive("live"); }

    function open() {
      clearTimeout(retryTimer);
      if (source) source.close();
      const url = new URL(cfg.api.stream, location.href);
      openedFor = current ? current.game_id : null;
      if (openedFor !== null) {
        url.searchParams.set("game_id", openedFor);
        url.searchParams.set("last_event_id", current.seq);
      }
      if (handlers.rig) url.searchParams.set("rig", "1");
      setLive(wasLive ? "down" : "connecting");
      source = new EventSource(url.toString());
      source.addEventListener("open", live);
      source.addEventListener("error", () => {
        setLive(wasLive ? "down" : "connecting");
        if (source.readyState === EventSource.CLOSED) retryTimer = setTimeout(open, REOPEN_MS);
      });
      if (handlers.rig) source.addEventListener("rig", (e) => handlers.rig(JSON.parse(e.data)));
      source.addEventListener("seats", (e) => { if (handlers.seats) handlers.seats(JSON.parse(e.data)); });
      source.addEventListener("hello", (e) => {
        live();
        const hello = JSON.parse(e.data);
        if (!current || hello.game_id !== current.game_id || hello.seq < current.seq) refetch();
        if (handlers.connected) handlers.connected(hello);
      });
      source.addEventListener("reset", (e) => {
        const doc = JSON.parse(e.data);
        apply(doc.state, doc);
        if (handlers.reset) handlers.reset(doc);
        if (doc.game_id !== openedFor) open();  // follow the new game from now on
      });
      source.addEventListener("entry", (e) => {
        const doc = JSON.parse(e.data);
        if (doc.state) apply(doc.state, doc);
        if (!doc.catch_up && handlers.events && doc.events) handlers.events(doc.events, doc);
      });
    }

    // A phone that slept has a dead socket that may still look open: start afresh on wake.
    document.addEventListener("visibilitychange", () => { if (!document.hidden) open(); });
    window.addEventListener("online", open);
    window.addEventListener("pageshow", (e) => { if (e.persisted) open(); });
    if (current) handlers.state(current, null);
    else refetch();
    open();
    const follower = {
      refetch,
      apply,
      reopen: open,
      /** Drop the stream, as a phone's sleep does; the next wake-up reopens it. */
      close() { clearTimeout(retryTimer); if (source) source.close(); wasLive = true; setLive("down"); },
      /** A request could not reach the Pi: say so until the stream is back. */
      lost() { if (wasLive) setLive("down"); },
      get state() { return current; },
    };
    window.Tucana.live = follower;
    return follower;
  }

  /* ---- the page's notice ---- */

  /**
   * The page's notice (#banner with #banner-text and #banner-ok). It sits in the flow above the
   * page, so it never covers what it talks about; OK puts it away, and a notice under the same key
   * stays away (per tab) until the page shows another one.
   */
  function notice() {
    const node = byId("banner");
    const text = byId("banner-text");
    const storeKey = "tucana-dismissed-" + cfg.page;
    let current = null;

    function dismissed(key) {
      try { return Boolean(key) && sessionStorage.getItem(storeKey) === key; } catch (err) { return false; }
    }

    byId("banner-ok").addEventListener("click", () => {
      try { if (current) sessionStorage.setItem(storeKey, current); } catch (err) { /* storage off: it just hides */ }
      current = null;
      show(node, false);
    });

    return {
      /**
       * Show message under key (flashing if it is new or loud); false when it was put away before.
       * A loud one is scrolled into view unless scroll is false (a notice that comes while the
       * player is tapping must not move the page under the finger: it buzzes and beeps instead).
       */
      show(message, key, loud, scroll = loud) {
        if (dismissed(key)) { current = null; show(node, false); return false; }
        const fresh = key !== current || node.hidden;
        current = key;
        text.textContent = message;
        show(node, true);
        if (fresh || loud) {
          node.classList.remove("flash");
          void node.offsetWidth;  // restart the animation
          node.classList.add("flash");
        }
        if (scroll) {
          const still = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
          node.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
        }
        return true;
      },
      hide() { current = null; show(node, false); },
      get key() { return current; },
    };
  }

  /* ---- sound ---- */

  /** A short beep made on the spot: no audio file needed. */
  let audio = null;
  function beep() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
      BEEP_STARTS_S.forEach((offset) => {
        const osc = audio.createOscillator();
        const gain = audio.createGain();
        osc.type = "sine";
        osc.frequency.value = BEEP_HZ;
        const start = audio.currentTime + offset;
        gain.gain.setValueAtTime(0.0001, start);  // exponential ramps cannot start from 0
        gain.gain.exponentialRampToValueAtTime(BEEP_GAIN, start + 0.1 * BEEP_S);
        gain.gain.exponentialRampToValueAtTime(0.0001, start + 0.9 * BEEP_S);
        osc.connect(gain).connect(audio.destination);
        osc.start(start);
        osc.stop(start + BEEP_S);
      });
      return true;
    } catch (err) {
      return false;
    }
  }

  /**
   * Browsers allow sound (and vibration) only after the reader touched the page: the first tap
   * anywhere unlocks them, on its way to whatever it taps; nothing on the page moves for it. A
   * fixed-size mark in the header (#sound) says whether the round-end beep can be heard yet.
   */
  const UNLOCKING_EVENTS = ["pointerup", "keydown", "touchend"];
  function unlockSound() {
    try {
      audio = audio || new AudioContext();
      if (audio.state === "suspended") audio.resume();
    } catch (err) { return; }  // no audio on this device
    UNLOCKING_EVENTS.forEach((name) => document.removeEventListener(name, unlockSound, true));
    const mark = byId("sound");
    if (mark) {
      mark.dataset.on = "true";
      mark.setAttribute("aria-label", t("sound.on"));
      mark.title = t("sound.on");
    }
  }
  UNLOCKING_EVENTS.forEach((name) => document.addEventListener(name, unlockSound, true));

  /** A time of day from seconds since 1970 (the Pi's clock), as the page's language writes it. */
  function clockTime(seconds) {
    return new Date(seconds * 1000).toLocaleTimeString(cfg.lang || "en", { hour: "2-digit", minute: "2-digit" });
  }

  /** A JSON object keyed by player names as a Map: a name like "constructor" is just a name. */
  function byName(obj) {
    return new Map(obj && typeof obj === "object" ? Object.entries(obj) : []);
  }

  window.Tucana = {
    cfg, t, el, icon, byId, show, api, follow, beep, setLive, notice, said, sentence, inSentence, cardName,
    byName, clockTime,
    TERRAINS, SIGHTS, LETTERS, ROMAN,
  };
})();
