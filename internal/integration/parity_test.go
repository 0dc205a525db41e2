package integration

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"net/url"
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

// TestStaticExportParity serves folio build's output with the nginx config
// it writes, and asks nginx and folio serve the same requests: every
// exported route plainly, gzipped and with HEAD, the Accept list on every
// page that negotiates, conditional requests, and the answers that are no
// file (404, 405, 406, OPTIONS, redirects). A client must not be able to
// tell them apart, beyond ETag and Last-Modified values and the cursors
// the export never issued.
func TestStaticExportParity(t *testing.T) {
	nginxtest.Need(t, "nginx")
	s := paritySite(t)
	addr := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	out := filepath.Join(s.Dir, "public")
	conf := filepath.Join(s.Dir, "nginx", "site.conf")
	build := exec.Command(folio, "build", "--config", s.Config, "--out", out, "--nginx", conf, "--addr", addr)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("folio build: %v\n%s", err, b)
	}
	nginxtest.Nginx(t, conf, addr, 0)
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	static := "http://" + addr

	paths := exportedPaths(t, out)
	checkComplete(t, p.URL, paths)
	compare := func(r parity.Request) *parity.Answer {
		t.Helper()
		a, err := parity.Do(p.URL, r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := parity.Do(static, r)
		if err != nil {
			t.Fatal(err)
		}
		if d := parity.Diff(a, b); d != "" {
			t.Errorf("%s: serve vs export: %s", r, d)
		}
		return a
	}
	negotiating := 0
	for _, path := range paths {
		a := compare(parity.Request{Path: path})
		compare(parity.Request{Path: path, Header: map[string]string{"Accept-Encoding": "gzip"}})
		compare(parity.Request{Path: path, Header: map[string]string{"Accept-Encoding": "gzip;q=0, br"}})
		compare(parity.Request{Method: "HEAD", Path: path})
		if strings.Contains(a.Header.Get("Vary"), "Accept,") || a.Header.Get("Vary") == "Accept" {
			negotiating++
			for _, accept := range parity.AcceptHeaders {
				compare(parity.Request{Path: path, Header: map[string]string{"Accept": accept}})
			}
			compare(parity.Request{Method: "HEAD", Path: path, Header: map[string]string{"Accept": "text/markdown"}})
		}
	}
	if negotiating < 60 {
		t.Errorf("%d exported pages negotiate, want the directory and every article", negotiating)
	}
	conditional(t, p.URL, static, paths)

	for _, r := range []parity.Request{
		{Path: "/nope"}, {Path: "/nope/"}, {Path: "/blog/nope/"}, {Path: "/blog/nope.md"},
		{Path: "/api/nope"}, {Path: "/api/posts/cursor/x.txt"}, {Path: "/x.json"}, {Path: "/static/nope.css"},
		{Path: "/404.html"}, {Path: "/index.html"}, {Path: "/blog/index.html"}, {Path: "/healthz.json"},
		{Path: "/api/posts/cursor/!!.json"}, {Path: "/api/posts/cursor/.json"}, {Path: "/api/posts/cursor/bad%21cur.json"},
		{Path: "/api/posts/cursor/" + strings.Repeat("A", 129) + ".json"}, {Method: "HEAD", Path: "/api/posts/cursor/!!.json"},
		{Path: "/api/posts/cursor/a/b.json"}, {Path: "/api/posts/cursor/!!.txt"},
		{Path: "/api/posts/cursor/a%2Fb.json"}, {Path: "/api/posts/cursor/a%2f.json?x=1"}, {Path: "/api/posts/cursor/%2F.json"},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "2100-01-01"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri Jan  1 00:00:00 2100"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Friday, 01-Jan-50 00:00:00 GMT"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 UTC"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "fri, 01 jan 2100 00:00:00 GMT"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Xyz, 01 Jan 2100 00:00:00 GMT"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Sun, 31 Feb 2100 00:00:00 GMT"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri Jan 1 00:00:00 2100"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Friday, 01-Jan-50 00:00:00 EST"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri,  01 Jan 2100 0:00:00.5 GMT"}},
		{Path: "/healthz"}, {Method: "HEAD", Path: "/healthz"}, {Method: "POST", Path: "/healthz"}, {Method: "OPTIONS", Path: "/healthz"},
		{Path: "/healthz", Header: map[string]string{"Accept-Encoding": "gzip", "Accept": "text/markdown"}},
		{Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}},
		{Path: "/healthz", Header: map[string]string{"If-None-Match": `"other", W/` + healthETag}},
		{Path: "/healthz", Header: map[string]string{"If-None-Match": `"other"`}},
		{Path: "/healthz", Header: map[string]string{"If-None-Match": "*"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
		{Path: "/healthz", Header: map[string]string{"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
		{Method: "HEAD", Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}},
		{Path: "/api/caf%C3%A9%22%3Cx%3E"}, {Method: "HEAD", Path: "/nope"},
		{Path: "/blog/later/"}, {Path: "/blog/later.md"},
		{Path: "/blog"}, {Path: "/blog/caf%C3%A9"}, {Path: "/old/cafe"}, {Path: "/old/cafe/"}, {Path: "/blog/kaffee"},
		{Path: "/blog/caf%C3%A9/"}, {Path: "/blog/caf%c3%a9/"}, {Path: "/blog/caf%C3%A9/?utm=x"},
		{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-99"}},
		{Path: "/blog/trip/", Header: map[string]string{"Range": "bytes=0-99"}},
		{Path: "/blog/trip/", Header: map[string]string{"If-None-Match": "*"}},
		{Path: "/rss.xml", Header: map[string]string{"If-Modified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
		{Path: "/rss.xml", Header: map[string]string{"If-Modified-Since": "not a date"}},
		{Path: "/llms.txt", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
		{Path: "/blog/trip/photo.svg", Header: map[string]string{"Range": "bytes=0-9"}},
		{Path: "/api/posts.json", Header: map[string]string{"Range": "bytes=0-9", "Accept-Encoding": "gzip"}},
		{Method: "POST", Path: "/"}, {Method: "PUT", Path: "/api/posts.json"}, {Method: "DELETE", Path: "/blog/trip/"},
		{Method: "OPTIONS", Path: "/"}, {Method: "OPTIONS", Path: "/blog/trip/"},
		{Method: "OPTIONS", Path: "/api/posts.json", Header: map[string]string{"Access-Control-Request-Method": "GET", "Access-Control-Request-Headers": "x-custom"}},
		{Method: "OPTIONS", Path: "/rss.xml", Header: map[string]string{"Origin": "https://elsewhere.example"}},
		{Path: "/blog/trip/", Header: map[string]string{"Accept": "application/json", "Accept-Encoding": "gzip"}},
		// Paths match with case, in serve and so in the export (whose
		// nginx maps would ignore it): routes, redirects and aliases
		// written in another case are 404; aliases that differ only in
		// case each redirect to their own post.
		{Path: "/API/POSTS.JSON"}, {Path: "/Api/posts.json"}, {Path: "/RSS.XML"}, {Path: "/Llms.txt"}, {Path: "/HEALTHZ"},
		{Path: "/Blog/"}, {Path: "/BLOG/TRIP/"}, {Path: "/blog/Trip/"}, {Path: "/blog/TRIP.md"}, {Path: "/Blog.md"},
		{Path: "/blog/trip/PHOTO.svg"}, {Path: "/blog/TRIP/photo.svg"}, {Path: "/blog/CAF%C3%89/"}, {Path: "/STATIC/nope.css"},
		{Path: "/api/posts/cursor/0.JSON"}, {Path: "/API/posts/cursor/0.json"}, {Path: "/sdk/Blog-Client.js"},
		{Path: "/Blog"}, {Path: "/blog/Trip"}, {Path: "/OLD/CAFE/"}, {Path: "/old/Cafe"}, {Path: "/blog/Kaffee"},
		{Path: "/old/cafe/"}, {Path: "/Old/Cafe/"}, {Path: "/Old/Cafe"}, {Path: "/OLD/cafe/"},
		{Path: "/Blog/Caf%C3%A9/"}, {Path: "/Blog/Caf%C3%A9"}, {Path: "/Blog/caf%C3%A9/"},
		{Method: "HEAD", Path: "/API/POSTS.JSON"}, {Method: "OPTIONS", Path: "/API/POSTS.JSON"},
		{Path: "/Blog/", Header: map[string]string{"Accept": "text/markdown"}},
		// Bytes that are not UTF-8 in a path are U+FFFD in a problem's
		// detail, as encoding/json writes them.
		{Path: "/blog/%FF.md"}, {Path: "/api/%FF"}, {Path: "/x%C0%AF.json"}, {Path: "/blog/%E2%82.md"},
		{Path: "/api/%ED%A0%80%F4%90%80%80%F0%9F%98%80%EF%BF%BD%E2%80%A8"}, {Path: "/blog/caf%C3%A9%FF.md"},
		{Method: "HEAD", Path: "/api/%FF"},
		// An unclean path is answered as the clean path it names, as
		// nginx looks it up; the 404 page is gzipped like any page.
		{Path: "//blog/"}, {Path: "/blog//trip/"}, {Path: "/blog/./trip/"}, {Path: "/x/../rss.xml"},
		{Path: "/api//posts.json", Header: map[string]string{"Accept-Encoding": "gzip"}}, {Path: "/blog/trip/../trip.md"}, {Path: "/x/%2e%2e/rss.xml"}, {Path: "/blog/nope/%2E%2E/trip/"},
		// A last dot segment, and an escaped slash, the same in both
		// (issue 15, finding 15).
		{Path: "/blog/trip/."}, {Path: "/blog/trip/.."}, {Path: "/blog/trip/%2e"}, {Path: "/blog/trip/%2E%2E"}, {Path: "/blog/."},
		{Path: "/blog/trip/./"}, {Path: "/blog/trip/../"}, {Path: "/blog/trip.md/."}, {Path: "/rss.xml/."}, {Path: "/rss.xml/.."},
		{Path: "/blog%2ftrip/"}, {Path: "/blog%2Ftrip/"}, {Path: "/blog%2ftrip.md"}, {Path: "/blog/trip%2fphoto.svg"}, {Path: "/api%2fposts.json"},
		{Method: "HEAD", Path: "/blog/trip/.."}, {Path: "/blog/trip/.", Header: map[string]string{"Accept": "text/markdown"}},
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}}, {Path: "/blog/nope/", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Method: "HEAD", Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip;q=0, br"}}, {Path: "/nope", Header: map[string]string{"Accept-Encoding": "GZIP"}},
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-9", "If-None-Match": "*"}},
		{Path: "/api/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
		// 405 and OPTIONS say Vary: Accept where GET negotiates: paths
		// written as the route, clean or not, and no others.
		{Method: "POST", Path: "/blog/"}, {Method: "OPTIONS", Path: "/blog//trip/"}, {Method: "PUT", Path: "/blog/caf%C3%A9/"},
		{Method: "OPTIONS", Path: "/BLOG/TRIP/"}, {Method: "DELETE", Path: "/Blog/"}, {Method: "POST", Path: "/blog/trip.md"},
		{Method: "OPTIONS", Path: "/blog/nope/"},
	} {
		compare(r)
	}

	// The conditional /healthz requests above compared 304s, not two 200s.
	if a, _ := parity.Do(static, parity.Request{Path: "/healthz", Header: map[string]string{"If-None-Match": healthETag}}); a.Status != 304 {
		t.Errorf("export, /healthz with its ETag: %d, want 304", a.Status)
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

	// What agents and their graders ask, of both hosts.
	t.Run("agent probes on serve", func(t *testing.T) {
		probes.Check(t, probes.Site{Base: p.URL + "/", Emitted: "https://example.org/"})
	})
	t.Run("agent probes on the export", func(t *testing.T) {
		probes.Check(t, probes.Site{Base: static + "/", Emitted: "https://example.org/"})
	})
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

// conditional revalidates each path on each server with that server's
// own validators: both must answer 304 with the same headers.
func conditional(t *testing.T, serve, static string, paths []string) {
	t.Helper()
	for _, path := range paths {
		for _, accept := range []string{"", "text/markdown"} {
			h := map[string]string{}
			if accept != "" {
				h["Accept"] = accept
			}
			a, _ := parity.Do(serve, parity.Request{Path: path, Header: h})
			b, _ := parity.Do(static, parity.Request{Path: path, Header: h})
			for _, v := range []string{"If-None-Match", "If-Modified-Since"} {
				src := map[string]string{"If-None-Match": "Etag", "If-Modified-Since": "Last-Modified"}[v]
				ha, hb := clone(h), clone(h)
				ha[v], hb[v] = a.Header.Get(src), b.Header.Get(src)
				ra := parity.Request{Path: path, Header: ha}
				x, _ := parity.Do(serve, ra)
				y, _ := parity.Do(static, parity.Request{Path: path, Header: hb})
				if x.Status != 304 {
					t.Errorf("%s: serve answers %d, want 304", ra, x.Status)
				}
				if d := parity.Diff(x, y); d != "" {
					t.Errorf("%s (each its own validator): serve vs export: %s", ra, d)
				}
			}
		}
	}
}

func clone(m map[string]string) map[string]string {
	c := make(map[string]string, len(m)+1)
	for k, v := range m {
		c[k] = v
	}
	return c
}
