package reliability

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// secretFiles are files an attacker would reach for by traversal: beside
// the content folder, in it but unpublished (a draft page in a section of
// its own, a draft bundle's file), and ignored files inside the section.
// Each holds a TOPSECRET marker. (Every other page of the content folder
// is published, and every file beside a section's or the home page's
// _index: Hugo publishes them.)
var secretFiles = map[string]string{
	"private/page.md":           "---\ntitle: TOPSECRET private\ndate: 2020-01-01\ndraft: true\n---\nTOPSECRET-PRIVATE\n",
	"private/hidden/index.md":   "---\ntitle: TOPSECRET bundle\ndate: 2020-01-01\ndraft: true\n---\nTOPSECRET-BUNDLE\n",
	"private/hidden/secret.txt": "TOPSECRET-ROOT\n",
	"blog/.secret-draft.md":     "---\ntitle: TOPSECRET hidden file\ndate: 2020-01-01\n---\nTOPSECRET-DOTFILE\n",
	"blog/backup.md~":           "---\ntitle: TOPSECRET backup\ndate: 2020-01-01\n---\nTOPSECRET-BACKUP\n",
	"blog/pub-bundle/.env":      "TOPSECRET-ENV\n",
	"blog/pub-bundle/.git/HEAD": "TOPSECRET-GIT\n",
}

// outsideFiles are written beside the content folder of the binary's
// site: its config and a secret.
var outsideFiles = map[string]string{
	"secret-outside.txt": "TOPSECRET-OUTSIDE\n",
	"config.toml":        "# TOPSECRET-CONFIG\nbaseURL = \"" + base + "\"\ncontentDir = \"content\"\n",
}

// hostileContent is the public fixture plus the secret files.
func hostileContent() map[string]string {
	m := publicOnly()
	maps.Copy(m, secretFiles)
	return m
}

// hostileDir writes the binary's site: config, outside secret, content.
func hostileDir(t *testing.T) string {
	dir := t.TempDir()
	writeTree(t, dir, outsideFiles)
	writeTree(t, filepath.Join(dir, "content"), hostileContent())
	return dir
}

// dotSpellings are the ways of writing "../" that servers have been
// fooled by: percent-encoded dots and slashes, double encoding,
// backslashes, NUL, overlong UTF-8, and the odd forms of other stacks.
var dotSpellings = []string{
	"../", "..%2f", "..%2F", "%2e%2e/", "%2E%2E%2F", ".%2e/", "%2e./", "%2e%2e%2f",
	"%252e%252e%252f", "..%252f", `..\`, "..%5c", "%2e%2e%5c", "..%00/", "%00../",
	"%c0%ae%c0%ae/", "%c0%ae%c0%ae%c0%af", "..%c0%af", "..%c1%9c", "%e0%80%ae%e0%80%ae/",
	"%uff0e%uff0e/", "....//", "..;/", ".../", "%2e%2e%2f%2e%2e%2f",
}

// traversalTargets combines every route family (pages, bundle files,
// Markdown, assets, the client, the API) with every spelling, several
// depths, and every file worth stealing (and NUL-terminated forms that
// try to borrow an allowed extension).
func traversalTargets() []string {
	prefixes := []string{"/", "/blog/", "/blog/pub-bundle/", "/blog/hello/", "/static/", "/sdk/", "/api/posts/cursor/", "/blog/hello.md/"}
	names := []string{"secret-outside.txt", "config.toml", "content/private/page.md", "private/page.md", "private/page",
		"secret.txt", "private/hidden/secret.txt", "hidden/secret.txt", "blog/.secret-draft.md", ".secret-draft.md", "pub-bundle/.env", ".env", ".git/HEAD", "etc/passwd", "blog/backup.md~"}
	var out []string
	for _, prefix := range prefixes {
		for _, dots := range dotSpellings {
			for _, depth := range []int{1, 3, 8} {
				for _, name := range names {
					out = append(out, prefix+strings.Repeat(dots, depth)+name)
				}
			}
		}
	}
	for _, name := range []string{"secret.txt", "private/page.md", "pub-bundle/.env", "pub-bundle/.git/HEAD", ".secret-draft.md", "backup.md~"} {
		for _, tail := range []string{"%00", "%00.svg", "%00.md", "%2500.svg", ";.svg", "/.", "/"} {
			out = append(out, "/blog/"+name+tail, "/blog/pub-bundle/"+name+tail, "/static/"+name+tail)
		}
		out = append(out, "/blog/"+strings.ReplaceAll(name, "/", "%2f"), "/blog/"+strings.ReplaceAll(name, ".", "%2e"))
	}
	return out
}

// secretMarks are what a successful traversal would show.
var secretMarks = []string{"topsecret", "root:x:0:0"}

// checkHostile fails the test on a 5xx or a secret in the answer, and
// counts the status.
func checkHostile(t *testing.T, a answer, method, target string, statuses map[int]int) {
	t.Helper()
	statuses[a.status]++
	if a.status >= 500 {
		t.Errorf("%s %q: %d", method, target, a.status)
	}
	low := strings.ToLower(string(a.text()))
	for _, m := range secretMarks {
		if strings.Contains(low, m) {
			t.Errorf("%s %q: %d shows %q:\n%s", method, target, a.status, m, clip(a.text()))
		}
	}
}

// TestTraversalInProcess sends every traversal target to the handler as
// folio serve builds it, content in a file system that holds the secrets
// outside the section and as ignored files inside it.
func TestTraversalInProcess(t *testing.T) {
	srv := newServer(t, mapFS(hostileContent()), time.Now())
	statuses := map[int]int{}
	targets := traversalTargets()
	for _, target := range targets {
		for _, method := range []string{"GET", "HEAD"} {
			a := ask(t, srv, method, target, nil)
			checkHostile(t, a, method, target, statuses)
			if loc := a.header.Get("Location"); a.status/100 == 3 && strings.HasPrefix(loc, "/") {
				checkHostile(t, ask(t, srv, method, loc, nil), method, loc+" (redirected)", statuses)
			}
		}
	}
	if a := ask(t, srv, "GET", "/blog/pub-bundle/photo.svg", nil); a.status != 200 {
		t.Fatalf("control: the bundle file answers %d", a.status)
	}
	t.Logf("%d traversal targets, GET and HEAD, redirects followed; statuses %s", len(targets), statusList(statuses))
}

// TestTraversalOverTCP sends the same targets byte for byte over a TCP
// connection to the folio binary (real request parsing, real os.OpenRoot
// content folder), with a secret and the config file beside the content
// folder.
func TestTraversalOverTCP(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary")
	}
	t.Parallel() // the folio binary works in its own process; the wait overlaps TestSlowloris's
	dir := hostileDir(t)
	p := startServe(t, dir)
	rc := dialRaw(t, p.Addr())
	if a := rc.do(t, "GET", "/blog/pub-bundle/photo.svg"); a.status != 200 {
		t.Fatalf("control: the bundle file answers %d over TCP", a.status)
	}
	statuses := map[int]int{}
	targets := traversalTargets()
	for _, target := range targets {
		a := rc.do(t, "GET", target)
		checkHostile(t, a, "GET", target, statuses)
		if loc := a.header.Get("Location"); a.status/100 == 3 && strings.HasPrefix(loc, "/") {
			checkHostile(t, rc.do(t, "GET", loc), "GET", loc+" (redirected)", statuses)
		}
	}
	t.Logf("%d raw traversal targets, redirects followed; statuses %s", len(targets), statusList(statuses))
	if _, err := os.Stat(filepath.Join(dir, "secret-outside.txt")); err != nil {
		t.Fatalf("the secret was not there to steal: %v", err)
	}
}

func statusList(m map[int]int) string {
	keys := slices.Sorted(maps.Keys(m))
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%d×%d ", k, m[k])
	}
	return b.String()
}
