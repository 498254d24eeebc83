/* Shared by every page: text, safe DOM building, the JSON API, the live stream, the page's
   notice and the beep. The renderers of what the engine computed are in render.js. */
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
    const template = Object.prototype.hasOwnProperty.call(TEXT, key) ? TEXT[key] : key;
    if (!params) return template;
    return template.replace(/\{(\w+)\}/g, (m, name) => (name in params ? String(params[name]) : m));
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
    const token = readCookie(cfg.csrf_cookie || "tucana_csrf") || cfg.csrf_token;
    const changes = method !== "GET";
    if (token && changes) headers[cfg.csrf_header || "X-CSRF-Token"] = token;
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
    if (!response) throw Object.assign(new Error(t("error.network")), { status: 0 });
    let doc = null;
    try { doc = await response.json(); } catch (err) { doc = null; }
    if (!response.ok) {
      const message = (doc && (doc.message || doc.error)) || t("error.http", { status: response.status });
      throw Object.assign(new Error(message), { status: response.status, doc });
    }
    return doc;
  }

  /* ---- live stream ---- */

  const statusText = { live: "live.live", connecting: "live.connecting", down: "live.down" };

  function setLive(status) {
    const node = byId("live");
    if (!node) return;
    node.dataset.status = status;
    node.textContent = t(statusText[status]);
  }

  /**
   * Follow the game: handlers.state(state, doc) for each new state, handlers.events(events, doc)
   * for what an entry caused (live entries only, not catch-up). Reconnects with the last seen
   * sequence number when a sleeping phone wakes up.
   */
  function follow(handlers) {
    let source = null;
    let current = cfg.state || null;
    let retryTimer = null;
    let openedFor = null;  // the game id in the stream's URL

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

    function open() {
      clearTimeout(retryTimer);
      if (source) source.close();
      const url = new URL(cfg.api.stream, location.href);
      openedFor = current ? current.game_id : null;
      if (openedFor !== null && openedFor !== undefined) {
        url.searchParams.set("game_id", openedFor);
        url.searchParams.set("last_event_id", current.seq);
      }
      setLive("connecting");
      source = new EventSource(url.toString());
      source.addEventListener("open", () => setLive("live"));
      source.addEventListener("error", () => {
        if (source.readyState === EventSource.CLOSED) {
          setLive("down");
          retryTimer = setTimeout(open, REOPEN_MS);
        } else {
          setLive("connecting");
        }
      });
      source.addEventListener("hello", (e) => {
        setLive("live");
        const hello = JSON.parse(e.data);
        if (!current || hello.game_id !== current.game_id || hello.seq < current.seq) refetch();
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
    const live = {
      refetch,
      reopen: open,
      /** Drop the stream, as a phone's sleep does; the next wake-up reopens it. */
      close() { clearTimeout(retryTimer); if (source) source.close(); setLive("down"); },
      get state() { return current; },
    };
    window.Tucana.live = live;
    return live;
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
    const storeKey = "tucana-dismissed-" + (cfg.page || "page");
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
      /** Show message under key (flashing if it is new or loud); false when it was put away before. */
      show(message, key, loud) {
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
        if (loud) {
          const still = window.matchMedia && matchMedia("(prefers-reduced-motion: reduce)").matches;
          node.scrollIntoView({ block: "nearest", behavior: still ? "auto" : "smooth" });
        }
        return true;
      },
      hide() { current = null; show(node, false); },
      get key() { return current; },
    };
  }

  /** A short beep made on the spot: no audio file needed. */
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
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

  /** Browsers allow sound only after a tap: unlock the audio on the first one. */
  document.addEventListener("pointerdown", () => {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      if (audio.state === "suspended") audio.resume();
    } catch (err) { /* no audio on this device */ }
  }, { once: true });

  /** A time of day from seconds since 1970 (the Pi's clock), as the page's language writes it. */
  function clockTime(seconds) {
    return new Date(seconds * 1000).toLocaleTimeString(cfg.lang || "en", { hour: "2-digit", minute: "2-digit" });
  }

  /** A JSON object keyed by player names as a Map: a name like "constructor" is just a name. */
  function byName(obj) {
    return new Map(obj && typeof obj === "object" ? Object.entries(obj) : []);
  }

  window.Tucana = {
    cfg, t, el, icon, byId, show, api, follow, beep, setLive, notice, byName, clockTime,
    TERRAINS, SIGHTS, LETTERS, ROMAN,
  };
})();
