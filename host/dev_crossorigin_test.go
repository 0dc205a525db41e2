package host

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"folio/internal/cdp"
)

// TestDevCrossOriginBrowser: folio dev --drafts shows unpublished posts to
// its author and to no one else. In real Chromium, a page on another site
// tries every way a page can read another origin (fetch in cors and
// no-cors modes, a script or stylesheet element, an iframe), and a DNS
// rebinding name that resolves to dev's own address asks as same-origin:
// none of them reads the draft, while the author's own tab does.
func TestDevCrossOriginBrowser(t *testing.T) {
	const secret = "Sentinel7Q draft body"
	dir := newDevDir(t, map[string]string{
		"content/blog/pub.md":   post("Published", "2026-01-01T00:00:00Z"),
		"content/blog/draft.md": "---\ntitle: Unfinished\ndate: 2026-01-02T00:00:00Z\ndraft: true\n---\n" + secret + "\n",
	})
	f := startDev(t, dir, func(s *Spec) { s.Drafts = true })
	port := f.url[strings.LastIndex(f.url, ":")+1:]

	// The attacker's site: its page reports what each attempt could read.
	var attempts = []string{
		`fetch(DEV + "/api/posts.json").then(r => r.text())`,
		`fetch(DEV + "/blog/draft.md").then(r => r.text())`,
		`fetch(DEV + "/blog/draft.md", {mode: "no-cors"}).then(r => r.text().then(t => r.type + ":" + r.status + ":" + t))`,
		`fetch(DEV + "/blog/draft/", {credentials: "include"}).then(r => r.text())`,
		`new Promise(ok => { const s = document.createElement("script"); s.src = DEV + "/blog/draft.md"; s.onload = () => ok("loaded"); s.onerror = () => ok("error"); document.body.append(s); })`,
		`new Promise(ok => { const f = document.createElement("iframe"); f.src = DEV + "/blog/draft/"; f.onload = () => { try { ok(f.contentDocument.body.innerText) } catch (e) { ok("blocked: " + e.name) } }; document.body.append(f); })`,
	}
	attacker := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var js strings.Builder
		fmt.Fprintf(&js, "const DEV = %s;\nwindow.results = Promise.all([\n", strconv.Quote(f.url))
		for _, a := range attempts {
			fmt.Fprintf(&js, "  (%s).catch(e => \"error: \" + e.name),\n", a)
		}
		js.WriteString("]).then(r => JSON.stringify(r));\n")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprintf(w, "<!doctype html><title>evil</title><body><script>%s</script>", js.String())
	}))
	t.Cleanup(attacker.Close)
	attackerPort := attacker.URL[strings.LastIndex(attacker.URL, ":")+1:]

	// evil.test is the attacker's site; rebind.test is a name the attacker
	// points at 127.0.0.1 once the page is loaded (DNS rebinding).
	b := cdp.Start(t, cdp.Options{Flags: []string{"--host-resolver-rules=MAP evil.test 127.0.0.1, MAP rebind.test 127.0.0.1"}})

	t.Run("another site", func(t *testing.T) {
		page := b.Open("http://evil.test:" + attackerPort + "/")
		page.WaitTrue("the attempts", `window.results instanceof Promise`)
		got := page.String(`window.results`)
		if strings.Contains(got, "Sentinel7Q") || strings.Contains(got, "Unfinished") {
			t.Fatalf("a page on another site read the draft: %s", got)
		}
		t.Logf("what the other site got: %s", got)
	})

	t.Run("a rebinding name", func(t *testing.T) {
		page := b.Open("http://rebind.test:" + port + "/blog/")
		page.WaitTrue("the page", `document.readyState === "complete"`)
		got := page.String(`fetch("/api/posts.json").then(r => r.text().then(t => r.status + " " + t))`)
		body := page.String(`fetch("/blog/draft.md").then(r => r.text())`)
		text := page.String(`document.body.innerText`)
		for _, s := range []string{got, body, text} {
			if strings.Contains(s, "Sentinel7Q") || strings.Contains(s, "Unfinished") {
				t.Fatalf("the rebinding name read the draft: %s", s)
			}
		}
		if !strings.Contains(got, "421") {
			t.Errorf("fetch under the rebinding name: %s; want 421", got)
		}
	})

	t.Run("the author", func(t *testing.T) {
		page := b.Open(f.url + "/blog/")
		page.WaitTrue("the page", `document.readyState === "complete"`)
		got := page.String(`fetch("/blog/draft.md").then(r => r.text())`)
		if !strings.Contains(got, "Sentinel7Q") {
			t.Fatalf("the author's own tab does not see the draft: %s", got)
		}
	})
}
