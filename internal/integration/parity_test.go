package integration

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"folio/internal/corpus"
	"folio/internal/nginxtest"
	"folio/internal/parity"
	"folio/internal/probes"
)

// paritySite is a generated corpus plus the cases it lacks: an escaped
// slug, aliases (two that differ only in case, one that is a route in
// another case), a bundle with an image and a file too large to keep in
// memory, shortcodes, a scheduled post; seven posts per cursor page.
func paritySite(t *testing.T) *site {
	t.Helper()
	files := map[string]string{}
	for name, b := range corpus.Files(60, 1) {
		files[name] = string(b)
	}
	files["blog/café.md"] = post("Café", "2026-01-05T10:00:00Z", "aliases: [/old/cafe/, /blog/kaffee]", "tags: [naïve, \"a b\"]")
	files["blog/trip/index.md"] = post("Trip", "2026-01-06T10:00:00Z", "category: life", "aliases: [/Old/Cafe/, /Blog/Café/]") +
		"{{< figure src=\"photo.svg\" alt=\"A photo\" caption=\"The view.\" >}}\n\nSee {{< ref \"café\" >}}.\n"
	files["blog/trip/photo.svg"] = `<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`
	files["blog/trip/video.bin"] = strings.Repeat("0123456789abcdef", 5<<16) // 5 MiB
	files["blog/later.md"] = post("Later", "2099-01-01T00:00:00Z")
	return newSite(t, "[api]\npageSize = 7", files)
}

// A staticSite is a site the nginx export and the Cloudflare Worker are
// held to serve's answers on: a config file and a content folder (or a
// Hugo site's folder), and the requests of its own.
type staticSite struct {
	name            string
	config, content string
	source          string // a Hugo site's folder, instead of config and content
	extra           []parity.Request
	emitted         string   // the base URL the site writes; "" runs no agent probes
	random          int      // random Accept headers to send
	args            []string // more flags for build and serve
}

// checkHost checks what every host of s is held to beyond serve's
// answers: a suite that asked enough to mean anything, and the agents'
// probes at base when the site says where it is.
func (s staticSite) checkHost(t *testing.T, base string, st parity.Stats) {
	t.Helper()
	if st.Negotiating == 0 || st.Paths < 10 {
		t.Errorf("%s: the host holds %d paths, %d negotiating: too few to mean anything", s.name, st.Paths, st.Negotiating)
	}
	if s.emitted != "" {
		t.Run("agent probes", func(t *testing.T) {
			probes.Check(t, probes.Site{Base: base + "/", Emitted: s.emitted})
		})
	}
}

// flags are the flags that name the site.
func (s staticSite) flags() []string {
	if s.source != "" {
		return append([]string{"--source", s.source}, s.args...)
	}
	return append([]string{"--config", s.config, "--content", s.content}, s.args...)
}

// fixtureSite is the fixture site in dir, built from its folder
// (--source), asked random Accept headers.
func fixtureSite(dir string, random int) staticSite {
	site := staticSite{name: filepath.Base(dir), source: dir, random: random}
	if site.name == "hostless" {
		// Its baseURL has no host, so each command links to the address
		// it is given (build --addr, serve's own): one base URL for
		// both, its path kept, makes them comparable.
		site.args = []string{"--base-url", "https://hostless.example/blog/"}
	}
	if site.name == "rootless" {
		// Hugo writes nothing at /; every host answers the 301 to /en/
		// all the same, and the agents' probes of / pass (CONTRACT,
		// Agents). The folder holds nothing at /: ask / and /index.md.
		site.emitted = "https://example.org/"
		site.extra = []parity.Request{{Path: "/"}, {Path: "/", Header: map[string]string{"Accept": "text/markdown"}},
			{Path: "/index.md"}, {Method: "HEAD", Path: "/"}}
	}
	return site
}

// TestStaticExportParity serves folio build's output with the nginx config
// it writes, and asks nginx and folio serve the suite every host is held
// to (parity.Suite: every exported path plainly, with several
// Accept-Encoding values and HEAD, the Accept list and random Accept
// headers on every page that negotiates, revalidation with each host's
// own validators and with serve's (the export sends serve's ETags), the
// probes of unknown paths, bad cursors, traversal, methods and OPTIONS),
// plus the site's own requests, the nginx config's own (nginxExtra) and
// revalidation with serve's gzip ETags. A client must not be able to
// tell them apart. The differences CONTRACT allows a static export, and
// those nginx imposes, are checked on their own or left out of the
// requests, each said here and in the README:
//   - a cursor of the right shape that the export never issued is 404
//     (checked below);
//   - several byte ranges of a large bundle file get the whole file,
//     where serve's multipart answer has a random boundary (checked
//     below);
//   - /healthz's Last-Modified is the build's time (parity.Diff compares
//     only whether a Last-Modified is there);
//   - a path that climbs above the root is refused by nginx before it
//     reads any header (ngx_http_request.c, ngx_http_process_request_uri),
//     and answered as serve answers the cleaned path without headers:
//     nginxExtra sends such paths without headers;
//   - nginx refuses a header it takes once given twice (400), and an
//     empty If-Unmodified-Since (412, its own precondition filter, which
//     acts before the config can tell an empty field from none): not
//     sent.
//
// Locally the parity site alone, with 300 random Accept headers; in CI
// (CI=true) 2,000, and also the sample blog and every fixture site of
// pipeline/testdata/sites (the legacy folio site and the Hugo sites),
// each built from its folder as an author would (--source). The agents'
// probes run on the parity site and the sample; on the fixture sites
// they are the oracle tests' (host, siteoracle), which hold serve to
// Hugo, and the suite holds the export to serve.
func TestStaticExportParity(t *testing.T) {
	nginxtest.Need(t, "nginx")
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	ps := paritySite(t)
	sites := []staticSite{{name: "parity", config: ps.Config, content: ps.Content, extra: slices.Concat(parityExtra, nginxExtra),
		emitted: "https://example.org/", random: 300}}
	if os.Getenv("CI") == "true" {
		sites[0].random = 2000
		sites = append(sites, staticSite{name: "sample", config: filepath.Join(root, "config.toml"), content: filepath.Join(root, "content"),
			emitted: "https://blog.example.org/", random: 2000, args: []string{"--base-url", "https://blog.example.org/"}})
		fixtures, err := filepath.Glob(filepath.Join(root, "pipeline", "testdata", "sites", "*"))
		if err != nil || len(fixtures) == 0 {
			t.Fatalf("no fixture sites: %v", err)
		}
		for _, dir := range fixtures {
			if info, err := os.Stat(dir); err != nil || !info.IsDir() {
				continue
			}
			sites = append(sites, fixtureSite(dir, 2000))
		}
	}
	total := parity.Stats{}
	for _, s := range sites {
		t.Run(s.name, func(t *testing.T) {
			st := staticParity(t, s, s.name == "parity")
			total.Requests += st.Requests
			total.Paths += st.Paths
			total.Negotiating += st.Negotiating
			total.Differences += st.Differences
		})
	}
	t.Logf("nginx export vs serve: %s", total)
}

// staticParity builds s with --nginx, serves it with nginx and runs the
// suite against folio serve; own adds the checks of the parity site's
// own files and the allowed differences.
func staticParity(t *testing.T, s staticSite, own bool) parity.Stats {
	dir := t.TempDir()
	addr := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	out := filepath.Join(dir, "public")
	conf := filepath.Join(dir, "nginx", "site.conf")
	build := exec.Command(folio, append([]string{"build", "--out", out, "--nginx", conf, "--addr", addr}, s.flags()...)...)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("folio build: %v\n%s", err, b)
	}
	nginxtest.Nginx(t, conf, addr, 0)
	p := start(t, nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, s.flags()...)...)
	static := "http://" + addr

	paths := withIndexes(t, p.URL, exportedPaths(t, out))
	st := parity.Suite{
		Serve: p.URL, Host: static, Paths: paths, Random: s.random, SameETags: true,
		Encodings: []string{"gzip", "identity", "gzip;q=0", "gzip, deflate", "gzip;q=0, br"},
		Extra:     s.extra,
	}.Run(t)
	t.Logf("%s: %s", s.name, st)
	s.checkHost(t, static, st)
	if !own {
		return st
	}
	checkComplete(t, p.URL, paths)
	if st.Negotiating < 60 {
		t.Errorf("%d exported pages negotiate, want the directory and every article", st.Negotiating)
	}
	revalidate(t, p.URL, static, paths)
	// The conditional /healthz requests compared 304s, not two 200s.
	if a, _ := parity.Do(static, parity.Request{Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}}); a.Status != 304 {
		t.Errorf("export, /healthz with its ETag: %d, want 304", a.Status)
	}
	// The alias pages a bare static host would serve are on disk, and
	// nginx answers the 301 all the same (the suite compared every
	// alias with serve's; these are on its list because their files
	// are): its rule, not the file, answers.
	for _, alias := range []string{"/old/cafe/", "/blog/kaffee/", "/Old/Cafe/"} {
		name, _ := url.PathUnescape(alias)
		_, err := os.Stat(filepath.Join(out, filepath.FromSlash(name), "index.html"))
		a, _ := parity.Do(static, parity.Request{Path: alias})
		switch {
		case alias == "/old/cafe/" && err == nil:
			t.Errorf("export: %s has an alias page, though it differs only in case from /Old/Cafe/'s", alias)
		case alias != "/old/cafe/" && err != nil:
			t.Errorf("export: no alias page at %s: %v", alias, err)
		case a.Status != 301 || !strings.HasSuffix(a.Header.Get("Location"), "/blog/caf%C3%A9/") && !strings.HasSuffix(a.Header.Get("Location"), "/blog/trip/"):
			t.Errorf("export, alias %s: %d to %q, want nginx's 301 to the post", alias, a.Status, a.Header.Get("Location"))
		}
	}
	// Allowed differences: several ranges of a large bundle file (the
	// export answers the whole file), a cursor the export never issued.
	if a, _ := parity.Do(static, parity.Request{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=100-199,300-"}}); a.Status != 200 || len(a.Body) != 5<<20 {
		t.Errorf("export, several ranges: %d, %d bytes, want the whole file", a.Status, len(a.Body))
	}
	for _, c := range []string{"AAAAAAAAAAAAAAAA", "not-a-cursor", "0a"} {
		a, _ := parity.Do(static, parity.Request{Path: "/api/posts/cursor/" + c + ".json"})
		if a.Status != 404 || a.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("export, unissued cursor %s: %d %s, want a 404 problem", c, a.Status, a.Header.Get("Content-Type"))
		}
	}
	return st
}

// nginxExtra are the requests the nginx config has had to learn to
// answer as serve does that neither parity.Probes nor parityExtra send:
// /healthz's own ETag, a last dot segment, escaped slashes, the 404 page
// gzipped, 405 and OPTIONS on pages that negotiate.
var nginxExtra = []parity.Request{
	{Path: "/blog/nope/"}, {Path: "/blog/nope.md"}, {Path: "/api/posts/cursor/x.txt"}, {Path: "/blog/index.html"},
	{Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}},
	{Path: "/healthz", Header: map[string]string{"If-None-Match": `"other", W/` + healthETag}},
	{Method: "HEAD", Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}},
	{Path: "/api/posts.json", Header: map[string]string{"Range": "bytes=0-9", "Accept-Encoding": "gzip"}},
	{Method: "DELETE", Path: "/blog/trip/"}, {Method: "OPTIONS", Path: "/blog/trip/"},
	{Path: "/STATIC/nope.css"}, {Path: "/API/posts/cursor/0.json"},
	{Method: "HEAD", Path: "/API/POSTS.JSON"}, {Method: "OPTIONS", Path: "/API/POSTS.JSON"},
	{Path: "/api//posts.json", Header: map[string]string{"Accept-Encoding": "gzip"}},
	{Path: "/blog/trip/.."}, {Path: "/blog/trip/%2E%2E"}, {Path: "/blog/."}, {Path: "/blog/trip/./"}, {Path: "/blog/trip/../"},
	{Path: "/blog/trip.md/."}, {Path: "/rss.xml/."}, {Path: "/rss.xml/.."},
	{Path: "/blog%2Ftrip/"}, {Path: "/blog%2ftrip.md"}, {Path: "/blog/trip%2fphoto.svg"}, {Path: "/api%2fposts.json"},
	{Method: "HEAD", Path: "/blog/trip/.."}, {Path: "/blog/trip/.", Header: map[string]string{"Accept": "text/markdown"}},
	{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}}, {Path: "/blog/nope/", Header: map[string]string{"Accept-Encoding": "gzip"}},
	{Method: "HEAD", Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
	{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip;q=0, br"}}, {Path: "/nope", Header: map[string]string{"Accept-Encoding": "GZIP"}},
	{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-9", "If-None-Match": "*"}},
	{Path: "/api/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
	// Request lines nginx refuses before reading a header (a path that
	// climbs above the root, a bad escape): answered as serve answers
	// the path, with every method.
	{Path: "/x%ZZ"}, {Path: "/../x%zz"}, {Path: "/../blog/trip/"}, {Method: "HEAD", Path: "/../rss.xml"},
	{Method: "POST", Path: "/../rss.xml"}, {Method: "DELETE", Path: "/%2e%2e/blog/trip/"}, {Path: "/../api/nope"},
	{Method: "OPTIONS", Path: "/x/../../api/posts.json"},
	{Path: "/../%FF.md"}, {Method: "OPTIONS", Path: "/../%FF.md"}, {Method: "PUT", Path: "/../%FF"}, {Path: "/../a%3Fb"},
	{Path: "/../api%2fposts.json"}, {Method: "POST", Path: "/../api%2Fx.md"}, {Path: "/../../"},
	// Preconditions the suite does not send: empty fields, lists, both
	// kinds at once, on pages, their Markdown and the bundle file.
	{Path: "/rss.xml", Header: map[string]string{"If-Match": ""}}, {Path: "/rss.xml", Header: map[string]string{"If-None-Match": ""}},
	{Path: "/rss.xml", Header: map[string]string{"If-Modified-Since": ""}},
	{Path: "/rss.xml", Header: map[string]string{"If-None-Match": `"x", *`, "Accept-Encoding": "gzip"}},
	{Path: "/blog/trip/", Header: map[string]string{"If-Match": `"x", *`, "Accept": "text/markdown"}},
	{Path: "/blog/trip/", Header: map[string]string{"If-None-Match": `"x"`, "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/blog/trip/", Header: map[string]string{"If-Match": "*", "If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/blog/trip.md", Header: map[string]string{"If-Unmodified-Since": "Fri, 01 Jan 2100 00:00:00 GMT", "Accept-Encoding": "gzip"}},
	{Method: "HEAD", Path: "/rss.xml", Header: map[string]string{"If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-None-Match": `"x"`, "If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT", "Range": "bytes=1-2"}},
	{Method: "HEAD", Path: "/blog/trip/video.bin", Header: map[string]string{"If-Unmodified-Since": "yesterday"}},
	// Range fields nginx reads otherwise than Go (njs sends the range
	// itself), and ones Go refuses.
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9,"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=+5-9"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=\t3-4"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0--0"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=--5"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9223372036854775807"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9223372036854775808"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "Bytes=0-9"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=-0"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-99999999999999999999"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-" + strings.Repeat("9", 1<<10)}},
	{Method: "HEAD", Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9,"}},
}

// revalidate asks both hosts, for each path, with the ETag serve sends
// with its gzip body (the suite revalidates the plain ones): the export
// sends the same ETags, so both must answer If-None-Match with 304, and
// If-Match and If-Range (on a streamed file) alike.
func revalidate(t *testing.T, serve, static string, paths []string) {
	t.Helper()
	n := 0
	for _, path := range paths {
		gz := map[string]string{"Accept-Encoding": "gzip"}
		a, err := parity.Do(serve, parity.Request{Path: path, Header: gz})
		if err != nil {
			t.Fatal(err)
		}
		etag, modified := a.Header.Get("Etag"), a.Header.Get("Last-Modified")
		if etag == "" {
			continue
		}
		reqs := []parity.Request{
			{Path: path, Header: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": etag}},
			{Path: path, Header: map[string]string{"Accept-Encoding": "gzip", "If-None-Match": "W/" + etag}},
			{Path: path, Header: map[string]string{"Accept-Encoding": "gzip", "If-Match": etag}},
			{Method: "HEAD", Path: path, Header: map[string]string{"Accept-Encoding": "gzip", "If-Match": "W/" + etag}},
			{Path: path, Header: map[string]string{"Accept-Encoding": "gzip", "If-Modified-Since": modified}},
			{Path: path, Header: map[string]string{"Range": "bytes=3-7", "If-Range": etag}},
			{Path: path, Header: map[string]string{"Range": "bytes=3-7", "If-Range": modified}},
			{Path: path, Header: map[string]string{"Range": "bytes=3-7", "If-Range": " " + etag + " x"}},
		}
		for _, r := range reqs {
			x, err := parity.Do(serve, r)
			if err != nil {
				t.Fatal(err)
			}
			y, err := parity.Do(static, r)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if d := parity.Diff(x, y); d != "" {
				t.Errorf("%s: serve vs export: %s", r, d)
			}
		}
	}
	t.Logf("%d revalidations with serve's gzip ETags", n)
}

// healthETag is the ETag of /healthz's body "ok": the same from serve and
// from the export's nginx config.
var healthETag = func() string {
	sum := sha256.Sum256([]byte("ok"))
	return fmt.Sprintf(`"%x"`, sum[:16])
}()

// exportedPaths lists the URL paths of the files in out: "x/index.html"
// is "/x/"; .gz twins and the 404 page are no routes of their own.
func exportedPaths(t *testing.T, out string) []string {
	t.Helper()
	var paths []string
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".gz") {
			return err
		}
		rel, _ := filepath.Rel(out, p)
		rel = filepath.ToSlash(rel)
		if rel == "404.html" {
			return nil
		}
		rel = strings.TrimSuffix(strings.TrimSuffix(rel, "index.html"), "/") + "/"
		if !strings.HasSuffix(filepath.ToSlash(p), "/index.html") {
			rel = strings.TrimSuffix(rel, "/")
		}
		segs := strings.Split(rel, "/")
		for i, s := range segs {
			segs[i] = url.PathEscape(s)
		}
		paths = append(paths, "/"+strings.TrimPrefix(strings.Join(segs, "/"), "/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	slices.Sort(paths)
	return paths
}

// withIndexes adds to paths, each exported folder's URL ("/x/"), the
// URL of its index.html ("/x/index.html") where serve answers it, and
// the folder's name without its slash ("/x"): a static folder's own
// index.html, which Hugo publishes and the export holds at the folder's
// URL, answers at both on any static host, and its name redirects to
// the folder.
func withIndexes(t *testing.T, serve string, paths []string) []string {
	t.Helper()
	out := slices.Clip(paths)
	for _, p := range paths {
		if !strings.HasSuffix(p, "/") {
			continue
		}
		a, err := parity.Do(serve, parity.Request{Path: p + "index.html"})
		if err != nil {
			t.Fatal(err)
		}
		if a.Status == http.StatusOK {
			out = append(out, p+"index.html")
			if p != "/" {
				out = append(out, strings.TrimSuffix(p, "/"))
			}
		}
	}
	slices.Sort(out)
	return out
}

// checkComplete checks the export against what serve says exists: every
// post's page and Markdown, every cursor page of a walk (and no other),
// every page of the sitemap, every asset a page links to.
func checkComplete(t *testing.T, base string, paths []string) {
	t.Helper()
	has := func(p string) bool { return slices.Contains(paths, p) }
	var all struct {
		Items []struct{ URL, MarkdownURL string }
	}
	json.Unmarshal([]byte(get(t, base+"/api/posts.json")), &all)
	local := func(u string) string { return strings.TrimPrefix(u, "https://example.org") }
	for _, it := range all.Items {
		for _, u := range []string{it.URL, it.MarkdownURL} {
			if !has(local(u)) {
				t.Errorf("export lacks %s", local(u))
			}
		}
	}
	cursors := 0
	for c := "0"; ; cursors++ {
		if !has("/api/posts/cursor/" + c + ".json") {
			t.Errorf("export lacks cursor page %s", c)
		}
		var page struct{ NextCursor *string }
		json.Unmarshal([]byte(get(t, base+"/api/posts/cursor/"+c+".json")), &page)
		if page.NextCursor == nil {
			break
		}
		c = *page.NextCursor
	}
	exported := 0
	for _, p := range paths {
		if strings.HasPrefix(p, "/api/posts/cursor/") {
			exported++
		}
	}
	if exported != cursors+1 || cursors < 5 {
		t.Errorf("export holds %d cursor pages, a walk issues %d", exported, cursors+1)
	}
	for _, m := range regexp.MustCompile(`<loc>([^<]+)</loc>`).FindAllStringSubmatch(get(t, base+"/sitemap.xml"), -1) {
		if !has(local(m[1])) {
			t.Errorf("export lacks sitemap page %s", local(m[1]))
		}
	}
	for _, m := range regexp.MustCompile(`(?:href|src)="(/static/[^"]+|https://example.org/static/[^"]+)"`).FindAllStringSubmatch(get(t, base+"/"), -1) {
		if !has(local(m[1])) {
			t.Errorf("export lacks asset %s", m[1])
		}
	}
	for _, p := range []string{"/", "/blog/", "/blog.md", "/api/posts.json", "/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/sdk/blog-client.js", "/blog/trip/photo.svg", "/blog/trip/video.bin"} {
		if !has(p) {
			t.Errorf("export lacks %s", p)
		}
	}
	if has("/healthz") || has("/blog/later/") {
		t.Error("export holds /healthz or a scheduled post")
	}
}
