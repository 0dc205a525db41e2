package main

import (
	"strconv"
	"strings"
	"testing"
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
	b := startBrowser(t)
	page := b.open(f.url + "/blog/x/")
	connected := `document.documentElement.dataset.folioLive === "open"`
	page.waitTrue("the live-reload stream", connected+` && document.title.includes("Title A")`)

	// A marker in the page's JavaScript realm is gone after a reload.
	const mark, marked = `window.folioTestMark = 1`, `window.folioTestMark === 1`
	page.mustEval(mark)

	t.Run("a write reloads the page", func(t *testing.T) {
		f.write("content/blog/x.md", post("Title B", "2026-01-01T00:00:00Z"))
		page.waitTrue("the reloaded page", `!(`+marked+`) && document.title.includes("Title B")`)
		page.waitTrue("the stream after the reload", connected)
	})

	overlay := `document.getElementById("folio-live-overlay")`
	file := f.path("content/blog/x.md")
	overlayShows := overlay + ` !== null && ` + overlay + `.textContent.includes(` + strconv.Quote(file+":3") + `) && ` +
		overlay + `.textContent.includes("someday")`
	var late *tab

	t.Run("a broken post shows the overlay", func(t *testing.T) {
		page.mustEval(mark)
		f.write("content/blog/x.md", "---\ntitle: Title B\ndate: someday\n---\nBody.\n")
		page.waitTrue("the reloaded page with the overlay", `!(`+marked+`) && `+overlayShows)
		// A browser that connects while the error exists shows it too.
		late = b.open(f.url + "/blog/x/")
		late.waitTrue("the overlay in a page opened while broken", overlayShows)
		if got := late.mustEval(`document.title`); !strings.Contains(got, "Title B") {
			t.Errorf("the broken post's last good version is not served: title %s", got)
		}
	})

	problemsState := func(s string) string { return `document.documentElement.dataset.folioProblems === "` + s + `"` }
	focusInOverlay := overlay + ` !== null && ` + overlay + `.contains(document.activeElement)`

	t.Run("the overlay keeps the focus until Escape dismisses it", func(t *testing.T) {
		page.waitTrue("the focus on Dismiss", focusInOverlay+` && document.activeElement.textContent === "Dismiss"`)
		for i, shift := range []bool{false, true, false} {
			page.press("Tab", shift)
			if page.mustEval(focusInOverlay) != "true" {
				t.Errorf("Tab %d (shift %v) took the focus out of the overlay, to %s", i, shift,
					page.mustEval(`document.activeElement.outerHTML.slice(0, 80)`))
			}
		}
		// A focus that left (a click on the overlay's background) comes back.
		page.mustEval(`document.activeElement.blur()`)
		page.press("Tab", false)
		if page.mustEval(focusInOverlay) != "true" {
			t.Error("Tab from outside did not bring the focus back into the overlay")
		}
		page.press("Escape", false)
		page.waitTrue("the overlay dismissed by Escape", overlay+` === null && `+problemsState("dismissed"))
	})

	t.Run("the same problems stay dismissed across reloads", func(t *testing.T) {
		page.mustEval(mark)
		late.mustEval(mark)
		f.write("content/blog/y.md", post("Other post", "2026-01-02T00:00:00Z")) // a new snapshot, x's problem unchanged
		page.waitTrue("the reloaded page told the problems, without the overlay",
			`!(`+marked+`) && `+problemsState("dismissed")+` && `+overlay+` === null`)
		// The other tab never dismissed them.
		late.waitTrue("the other tab's overlay", `!(`+marked+`) && `+overlayShows+` && `+problemsState("shown"))
	})

	nosuch := post("Title B2", "2026-01-01T00:00:00Z") + "NEWTEXT {{< nosuch >}}inner{{< /nosuch >}}\n"
	t.Run("a problem that keeps the post shows its new text", func(t *testing.T) {
		page.mustEval(mark)
		f.write("content/blog/x.md", nosuch)
		// A different list: shown again although the tab dismissed one.
		page.waitTrue("the new text with the overlay", `!(`+marked+`) && document.body.textContent.includes("NEWTEXT") && `+
			overlay+` !== null && `+overlay+`.textContent.includes("nosuch") && `+focusInOverlay)
		page.mustEval(`document.activeElement.click()`) // Dismiss, as a click would
		page.waitTrue("the overlay dismissed by its button", overlay+` === null && `+problemsState("dismissed"))
	})

	t.Run("the fix removes the overlay", func(t *testing.T) {
		late.mustEval(mark)
		f.write("content/blog/x.md", post("Title C", "2026-01-01T00:00:00Z"))
		for _, p := range []*tab{page, late} {
			p.waitTrue("the fixed page", overlay+` === null && document.title.includes("Title C") && !(`+marked+`)`)
			p.waitTrue("the stream after the fix", connected)
		}
	})

	t.Run("after a fix the same problems show again", func(t *testing.T) {
		page.mustEval(mark)
		f.write("content/blog/x.md", nosuch) // the list dismissed above, then cleared by the fix
		page.waitTrue("the overlay for a list dismissed before the fix",
			`!(`+marked+`) && `+overlay+` !== null && `+overlay+`.textContent.includes("nosuch") && `+problemsState("shown"))
	})

	t.Run("a server restart reloads the page", func(t *testing.T) {
		page.mustEval(mark)
		addr := strings.TrimPrefix(f.url, "http://")
		f.stop()
		page.waitTrue("the lost stream", `document.documentElement.dataset.folioLive === "lost"`)
		f.write("content/blog/x.md", post("Title D", "2026-01-01T00:00:00Z"))
		startDev(t, dir, func(o *options) { o.addr = addr })
		page.waitTrue("the page reloaded from the restarted server", `!(`+marked+`) && document.title.includes("Title D")`)
		page.waitTrue("the stream to the restarted server", connected)
	})

	for _, line := range b.log() {
		// Requests refused while the server restarts are expected (the
		// stream's reconnection, a favicon being fetched at that moment).
		if strings.Contains(line, "net::ERR_CONNECTION_REFUSED") {
			continue
		}
		t.Errorf("browser: %s", line)
	}
}

// press sends a key to the page as the keyboard does: trusted events, so
// that Tab moves the focus the way it does for a person.
func (tb *tab) press(key string, shift bool) {
	tb.b.t.Helper()
	codes := map[string]int{"Tab": 9, "Escape": 27}
	modifiers := 0
	if shift {
		modifiers = 8
	}
	for _, typ := range []string{"rawKeyDown", "keyUp"} {
		_, err := tb.b.call(tb.session, "Input.dispatchKeyEvent", map[string]any{
			"type": typ, "key": key, "code": key, "modifiers": modifiers,
			"windowsVirtualKeyCode": codes[key], "nativeVirtualKeyCode": codes[key],
		})
		must(tb.b.t, err)
	}
}
