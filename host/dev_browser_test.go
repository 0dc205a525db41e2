package host

import (
	"strconv"
	"strings"
	"testing"

	"folio/internal/cdp"
)

// TestDevBrowser runs the live-reload script in headless Chromium against
// folio dev: a write reloads the page; a broken post reloads it too (every
// new snapshot does, CONTRACT) into its last good version with the overlay
// (file, line, message), also in a page opened while it is broken; a
// problem that does not stop the post (an unknown shortcode) reloads into
// the new text with the overlay; the fix removes it and reloads; a server restart reloads the
// page. The overlay is a modal dialog for the keyboard: Tab stays in it,
// Escape or Dismiss dismisses it, and the reloads that bring the same
// problems leave it dismissed in that tab (a different list, or the same
// after a fix, shows it again). The pages' Content-Security-Policy stays
// in force throughout and nothing may violate it.
func TestDevBrowser(t *testing.T) {
	dir := newDevDir(t, map[string]string{"content/blog/x.md": post("Title A", "2026-01-01T00:00:00Z")})
	f := startDev(t, dir, nil)
	b := cdp.Start(t, cdp.Options{})
	page := b.Open(f.url + "/blog/x/")
	connected := `document.documentElement.dataset.folioLive === "open"`
	page.WaitTrue("the live-reload stream", connected+` && document.title.includes("Title A")`)

	// A marker in the page's JavaScript realm is gone after a reload.
	const mark, marked = `window.folioTestMark = 1`, `window.folioTestMark === 1`
	page.MustEval(mark, nil)

	t.Run("a write reloads the page", func(t *testing.T) {
		f.write("content/blog/x.md", post("Title B", "2026-01-01T00:00:00Z"))
		f.settle()
		page.WaitTrue("the reloaded page", `!(`+marked+`) && document.title.includes("Title B")`)
		page.WaitTrue("the stream after the reload", connected)
	})

	overlay := `document.getElementById("folio-live-overlay")`
	file := f.path("content/blog/x.md")
	overlayShows := overlay + ` !== null && ` + overlay + `.textContent.includes(` + strconv.Quote(file+":3") + `) && ` +
		overlay + `.textContent.includes("someday")`
	var late *cdp.Tab

	t.Run("a broken post shows the overlay", func(t *testing.T) {
		page.MustEval(mark, nil)
		f.write("content/blog/x.md", "---\ntitle: Title B\ndate: someday\n---\nBody.\n")
		f.settle()
		page.WaitTrue("the reloaded page with the overlay", `!(`+marked+`) && `+overlayShows)
		// A browser that connects while the error exists shows it too.
		late = b.Open(f.url + "/blog/x/")
		late.WaitTrue("the overlay in a page opened while broken", overlayShows)
		if got := late.String(`document.title`); !strings.Contains(got, "Title B") {
			t.Errorf("the broken post's last good version is not served: title %s", got)
		}
	})

	problemsState := func(s string) string { return `document.documentElement.dataset.folioProblems === "` + s + `"` }
	focusInOverlay := overlay + ` !== null && ` + overlay + `.contains(document.activeElement)`

	t.Run("the overlay keeps the focus until Escape dismisses it", func(t *testing.T) {
		page.WaitTrue("the focus on Dismiss", focusInOverlay+` && document.activeElement.textContent === "Dismiss"`)
		for i, shift := range []bool{false, true, false} {
			page.Press("Tab", shift)
			if page.String(focusInOverlay) != "true" {
				t.Errorf("Tab %d (shift %v) took the focus out of the overlay, to %s", i, shift,
					page.String(`document.activeElement.outerHTML.slice(0, 80)`))
			}
		}
		// A focus that left (a click on the overlay's background) comes back.
		page.MustEval(`document.activeElement.blur()`, nil)
		page.Press("Tab", false)
		if page.String(focusInOverlay) != "true" {
			t.Error("Tab from outside did not bring the focus back into the overlay")
		}
		page.Press("Escape", false)
		page.WaitTrue("the overlay dismissed by Escape", overlay+` === null && `+problemsState("dismissed"))
	})

	t.Run("the same problems stay dismissed across reloads", func(t *testing.T) {
		page.MustEval(mark, nil)
		late.MustEval(mark, nil)
		f.write("content/blog/y.md", post("Other post", "2026-01-02T00:00:00Z")) // a new snapshot, x's problem unchanged
		f.settle()
		page.WaitTrue("the reloaded page told the problems, without the overlay",
			`!(`+marked+`) && `+problemsState("dismissed")+` && `+overlay+` === null`)
		// The other tab never dismissed them.
		late.WaitTrue("the other tab's overlay", `!(`+marked+`) && `+overlayShows+` && `+problemsState("shown"))
	})

	nosuch := post("Title B2", "2026-01-01T00:00:00Z") + "NEWTEXT {{< nosuch >}}inner{{< /nosuch >}}\n"
	t.Run("a problem that keeps the post shows its new text", func(t *testing.T) {
		page.MustEval(mark, nil)
		f.write("content/blog/x.md", nosuch)
		f.settle()
		// A different list: shown again although the tab dismissed one.
		page.WaitTrue("the new text with the overlay", `!(`+marked+`) && document.body.textContent.includes("NEWTEXT") && `+
			overlay+` !== null && `+overlay+`.textContent.includes("nosuch") && `+focusInOverlay)
		page.MustEval(`document.activeElement.click()`, nil) // Dismiss, as a click would
		page.WaitTrue("the overlay dismissed by its button", overlay+` === null && `+problemsState("dismissed"))
	})

	t.Run("the fix removes the overlay", func(t *testing.T) {
		late.MustEval(mark, nil)
		f.write("content/blog/x.md", post("Title C", "2026-01-01T00:00:00Z"))
		f.settle()
		for _, p := range []*cdp.Tab{page, late} {
			p.WaitTrue("the fixed page", overlay+` === null && document.title.includes("Title C") && !(`+marked+`)`)
			p.WaitTrue("the stream after the fix", connected)
		}
	})

	t.Run("after a fix the same problems show again", func(t *testing.T) {
		page.MustEval(mark, nil)
		f.write("content/blog/x.md", nosuch) // the list dismissed above, then cleared by the fix
		f.settle()
		page.WaitTrue("the overlay for a list dismissed before the fix",
			`!(`+marked+`) && `+overlay+` !== null && `+overlay+`.textContent.includes("nosuch") && `+problemsState("shown"))
	})

	beforeRestart := len(b.Errors())
	t.Run("a server restart reloads the page", func(t *testing.T) {
		page.MustEval(mark, nil)
		addr := f.h.spec.Addr
		f.stop()
		page.WaitTrue("the lost stream", `document.documentElement.dataset.folioLive === "lost"`)
		f.write("content/blog/x.md", post("Title D", "2026-01-01T00:00:00Z")) // while stopped: the new dev reads it
		startDev(t, dir, func(s *Spec) { s.Addr = addr })
		page.WaitTrue("the page reloaded from the restarted server", `!(`+marked+`) && document.title.includes("Title D")`)
		page.WaitTrue("the stream to the restarted server", connected)
	})

	for i, line := range b.Errors() {
		// Requests refused while the server restarts are expected (the
		// stream's reconnection, the page's stylesheets and favicon being
		// fetched at that moment), and so is any of those the stopping
		// server accepted and then closed unanswered or reset (when it
		// comes, before or after the listener closes, is the
		// scheduler's): only a stopping server closes a connection
		// without an answer, so before the restart there is none.
		if i >= beforeRestart && (strings.Contains(line, "net::ERR_CONNECTION_REFUSED") ||
			strings.Contains(line, "net::ERR_EMPTY_RESPONSE") || strings.Contains(line, "net::ERR_CONNECTION_RESET")) {
			continue
		}
		t.Errorf("browser: %s", line)
	}
}
