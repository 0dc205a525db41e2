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

  function connect() {
    const events = new EventSource(url);
    events.addEventListener("open", () => { root.dataset.folioLive = "open"; });
    events.addEventListener("problems", (e) => {
      let problems;
      try { problems = JSON.parse(e.data); } catch { return; }
      show(problems);
    });
    events.addEventListener("clear", () => hide());
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

  function show(problems) {
    hide();
    overlay = element("div", {
      position: "fixed", inset: "0", zIndex: "2147483647", overflow: "auto",
      background: "rgba(20, 20, 24, 0.92)", color: "#f4f4f5",
      font: "14px/1.5 ui-monospace, SFMono-Regular, Menlo, Consolas, monospace",
      padding: "2rem", boxSizing: "border-box",
    });
    overlay.id = "folio-live-overlay";
    overlay.setAttribute("role", "alertdialog");
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
    close.addEventListener("click", hide);
    head.append(close);
    overlay.append(head);

    const list = element("ul", { listStyle: "none", margin: "0", padding: "0" });
    for (const p of problems.slice(0, shown)) {
      const item = element("li", { margin: "0 0 0.75rem", padding: "0.5rem 0.75rem", borderLeft: "3px solid #f87171", background: "rgba(255,255,255,0.04)" });
      item.className = "folio-live-problem";
      item.append(element("div", { color: "#fde68a" }, `${p.path}:${p.line}`));
      item.append(element("div", { whiteSpace: "pre-wrap", overflowWrap: "anywhere" }, p.message));
      list.append(item);
    }
    overlay.append(list);
    if (n > shown) overlay.append(element("p", {}, `and ${n - shown} more (folio check lists them all)`));
    (document.body || root).append(overlay);
    close.focus({ preventScroll: true });
  }

  function hide() {
    if (overlay) overlay.remove();
    overlay = null;
  }

  connect();
})();
