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
// page. The pages' Content-Security-Policy stays in force throughout and
// nothing may violate it.
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

	t.Run("a problem that keeps the post shows its new text", func(t *testing.T) {
		page.mustEval(mark)
		f.write("content/blog/x.md", post("Title B2", "2026-01-01T00:00:00Z")+"NEWTEXT {{< nosuch >}}inner{{< /nosuch >}}\n")
		page.waitTrue("the new text with the overlay", `!(`+marked+`) && document.body.textContent.includes("NEWTEXT") && `+
			overlay+` !== null && `+overlay+`.textContent.includes("nosuch")`)
	})

	t.Run("the fix removes the overlay", func(t *testing.T) {
		late.mustEval(mark)
		f.write("content/blog/x.md", post("Title C", "2026-01-01T00:00:00Z"))
		for _, p := range []*tab{page, late} {
			p.waitTrue("the fixed page", overlay+` === null && document.title.includes("Title C") && !(`+marked+`)`)
			p.waitTrue("the stream after the fix", connected)
		}
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
