// folio dev: live reload and the build-problems overlay. Served at
// /_folio/live.js by `folio dev` only; `folio serve` and `folio build` never
// link it. It listens to /_folio/events (Server-Sent Events):
//
//   problems  data: [{path, line, message}, …]  show the overlay
//   clear     data: ""                          remove it
//   reload    data: snapshot id                 reload the page
//
// Each event's id is the version of the state it describes. Every reload
// is done, also the one that comes with new problems: a problem that does
// not stop a post (an unknown shortcode, a link to a draft) comes with
// new text to show, and for one that does the page is the post's last
// good version again. The reloaded page is told the current problems
// when it connects, so the overlay comes back while they remain.
//
// The page's own version (<meta name="folio-live">, added by the server) is
// sent as ?since=, so a change made while the page was loading, or a
// server restarted meanwhile, reloads the page as soon as it connects.
// EventSource reconnects by itself after the server goes away; if it gives
// up (the server answered with an error), this script tries again.
//
// The overlay is a modal alertdialog: focus moves to its Dismiss button,
// Tab and Shift+Tab stay within it, and Escape dismisses it as the button
// does. A dismissed list of problems is remembered (sessionStorage, this
// tab only) so that the reloads that follow, which bring the same list,
// do not show it and take the focus again; a different list shows it, and
// `clear` forgets the memory. A page that reloads after a server restart
// gets no `clear` for problems fixed meanwhile, so a memory can outlive
// them; it then hides only that identical list, in this tab. The state is
// on <html data-folio-problems>: "shown", "dismissed", or absent.
//
// The Content-Security-Policy allows scripts and styles from this origin
// only: the overlay is built with DOM calls and styled through the CSSOM
// (element.style), never with inline markup.
(() => {
  "use strict";
  const root = document.documentElement;
  const meta = document.querySelector('meta[name="folio-live"]');
  const url = new URL("/_folio/events", location.href);
  if (meta && meta.content) url.searchParams.set("since", meta.content);

  let overlay = null;
  let overlayKey = null; // the JSON of the problems the overlay shows
  let returnFocus = null; // what had the focus before the overlay took it
  const dismissedKey = "folio-live-dismissed";

  function connect() {
    const events = new EventSource(url);
    events.addEventListener("open", () => { root.dataset.folioLive = "open"; });
    events.addEventListener("problems", (e) => {
      let problems;
      try { problems = JSON.parse(e.data); } catch { return; }
      if (!Array.isArray(problems)) return;
      const key = JSON.stringify(problems);
      if (key === recall()) {
        hide();
        root.dataset.folioProblems = "dismissed";
      } else if (!overlay || key !== overlayKey) {
        show(problems, key); // the same list already shown keeps its focus
      }
    });
    events.addEventListener("clear", () => {
      remember(null);
      hide();
      delete root.dataset.folioProblems;
    });
    events.addEventListener("reload", (e) => {
      root.dataset.folioLive = "reloading";
      location.reload();
    });
    events.addEventListener("error", () => {
      root.dataset.folioLive = "lost";
      if (events.readyState === EventSource.CLOSED) {
        events.close();
        setTimeout(connect, 1000);
      }
    });
  }

  // sessionStorage may be unavailable (disabled, or a sandboxed frame):
  // then nothing is remembered and every list shows.
  function recall() {
    try { return sessionStorage.getItem(dismissedKey); } catch { return null; }
  }

  function remember(key) {
    try {
      if (key === null) sessionStorage.removeItem(dismissedKey);
      else sessionStorage.setItem(dismissedKey, key);
    } catch { /* not remembered */ }
  }

  function style(el, props) {
    Object.assign(el.style, props);
    return el;
  }

  function element(tag, props, text) {
    const el = style(document.createElement(tag), props || {});
    if (text !== undefined) el.textContent = text;
    return el;
  }

  const shown = 50; // problems listed; the rest are counted

  function show(problems, key) {
    const before = document.activeElement;
    if (overlay) {
      overlay.remove(); // replaced; returnFocus stays the page's element
    } else {
      returnFocus = before && before !== document.body && before !== root ? before : null;
    }
    overlay = element("div", {
      position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto",
      background: "rgba(20, 20, 24, 0.92)", color: "#f4f4f5",
      font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      padding: "2rem", boxSizing: "border-box",
    });
    overlay.id = "folio-live-overlay";
    overlay.setAttribute("role", "alertdialog");
    overlay.setAttribute("aria-modal", "true");
    overlay.setAttribute("aria-label", "Build problems");

    const head = element("div", { display: "flex", justifyContent: "space-between", alignItems: "baseline", gap: "1rem" });
    const n = problems.length;
    head.append(element("h2", { margin: "0 0 1rem", font: "bold 18px/1.3 system-ui, sans-serif", color: "#fca5a5" },
      `folio: ${n} build problem${n === 1 ? "" : "s"}`));
    const close = element("button", {
      font: "14px system-ui, sans-serif", padding: "0.25rem 0.75rem", cursor: "pointer",
      background: "#3f3f46", color: "#f4f4f5", border: "1px solid #71717a", borderRadius: "4px",
    }, "Dismiss");
    close.type = "button";
    close.addEventListener("click", dismiss);
    head.append(close);
    overlay.append(head);

    const list = element("ul", { listStyle: "none", margin: "0", padding: "0" });
    for (const p of problems.slice(0, shown)) {
      const item = element("li", { margin: "0 0 0.75rem", padding: "0.5rem 0.75rem", borderLeft: "3px solid #f87171", background: "rgba(255,255,255,0.04)" });
      item.className = "folio-live-problem";
      item.append(element("div", { color: "#fde68a" }, p.line > 0 ? `${p.path}:${p.line}` : p.path));
      item.append(element("div", { whiteSpace: "pre-wrap", overflowWrap: "anywhere" }, p.message));
      list.append(item);
    }
    overlay.append(list);
    if (n > shown) overlay.append(element("p", {}, `and ${n - shown} more (folio check lists them all)`));
    (document.body || root).append(overlay);
    overlayKey = key;
    root.dataset.folioProblems = "shown";
    close.focus({ preventScroll: true });
  }

  // hide removes the overlay; the focus, if it was in there, goes back
  // to what had it before.
  function hide() {
    if (!overlay) return;
    const hadFocus = overlay.contains(document.activeElement);
    overlay.remove();
    overlay = null;
    overlayKey = null;
    const back = returnFocus;
    returnFocus = null;
    if (hadFocus && back && back.isConnected && typeof back.focus === "function") back.focus({ preventScroll: true });
  }

  // dismiss is the author's choice (the button, Escape): the list is
  // remembered, so that the reloads that bring it again leave it hidden.
  function dismiss() {
    if (!overlay) return;
    remember(overlayKey);
    hide();
    root.dataset.folioProblems = "dismissed";
  }

  // The elements Tab may reach inside the overlay, in order.
  function tabStops() {
    return [...overlay.querySelectorAll('button, a[href], input, select, textarea, [tabindex]')]
      .filter((el) => !el.disabled && el.tabIndex >= 0);
  }

  // While the overlay is shown, Escape dismisses it and Tab cycles within
  // it; a focus that left it (a click on its background) comes back on Tab.
  function onKey(e) {
    if (!overlay || e.defaultPrevented) return;
    if (e.key === "Escape") {
      e.preventDefault();
      dismiss();
      return;
    }
    if (e.key !== "Tab") return;
    const stops = tabStops();
    e.preventDefault();
    if (stops.length === 0) return;
    const at = stops.indexOf(document.activeElement);
    const next = at < 0
      ? (e.shiftKey ? stops.length - 1 : 0)
      : (at + (e.shiftKey ? -1 : 1) + stops.length) % stops.length;
    stops[next].focus({ preventScroll: true });
  }

  document.addEventListener("keydown", onKey, true);

  connect();
})();
