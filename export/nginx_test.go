package export

import (
	"flag"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/internal/nginxtest"
	"folio/internal/parity"
)

var update = flag.Bool("update", false, "rewrite testdata golden files")

// fakeNginx exports the fake site and writes its nginx config, listening
// on listen, into a temporary folder.
func fakeNginx(t *testing.T, listen string) (root, conf string) {
	t.Helper()
	dir := t.TempDir()
	root = filepath.Join(dir, "public")
	site, err := Write(root, fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	conf = filepath.Join(dir, "site.conf")
	c, s, err := Nginx(site, NginxOptions{
		Root: root, Listen: listen, BaseURL: "https://example.org/",
		Self: conf, Script: ScriptPath(conf), NotFound: "/404.html", Refusals: fakeRefusals,
	})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(conf, c, 0o644)
	os.WriteFile(ScriptPath(conf), s, 0o644)
	return root, conf
}

func TestNginxGolden(t *testing.T) {
	root, conf := fakeNginx(t, "127.0.0.1:8080")
	got, _ := os.ReadFile(conf)
	// The temporary folder changes on every run.
	got = []byte(strings.ReplaceAll(string(got), filepath.Dir(root), "/srv"))
	golden := filepath.Join("testdata", "nginx.conf.golden")
	if *update {
		os.WriteFile(golden, got, 0o644)
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Errorf("nginx config changed; run go test ./export -run Golden -update and review the diff\n%s", got)
	}
}

func TestScriptPath(t *testing.T) {
	for conf, want := range map[string]string{
		"/etc/nginx/conf.d/blog.conf": "/etc/nginx/conf.d/blog.js",
		"/srv/nginx":                  "/srv/nginx.js",
		"/srv/odd.js":                 "/srv/odd.js.js",
	} {
		if got := ScriptPath(conf); got != want {
			t.Errorf("ScriptPath(%q) = %q, want %q", conf, got, want)
		}
	}
}

// TestNginxNeedsNotFoundPage: the config serves the 404 page as a file,
// so it must be among the site's files.
func TestNginxNeedsNotFoundPage(t *testing.T) {
	site := &Site{Files: []File{{Path: "/", Name: "index.html"}}}
	opts := NginxOptions{Root: "/srv/public", Self: "/srv/site.conf", Script: "/srv/site.js"}
	for _, nf := range []string{"", "/404.html"} {
		opts.NotFound = nf
		if _, _, err := Nginx(site, opts); err == nil || !strings.Contains(err.Error(), "404 page") {
			t.Errorf("NotFound %q, not exported: %v, want an error", nf, err)
		}
	}
	site.Files = append(site.Files, File{Path: "/404.html", Name: "404.html"})
	opts.NotFound = "/404.html"
	if _, _, err := Nginx(site, opts); err != nil {
		t.Errorf("with the 404 page exported: %v", err)
	}
}

func TestNginxRejectsUnsafePaths(t *testing.T) {
	site := &Site{}
	for _, root := range []string{"relative/public", "/srv/$site", "/srv/a;b"} {
		_, _, err := Nginx(site, NginxOptions{Root: root, Script: "/srv/x.js"})
		if err == nil {
			t.Errorf("root %q accepted", root)
		}
	}
}

// TestNginxParity serves the fake site's export with real nginx and asks
// it what the handler itself is asked.
func TestNginxParity(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	_, conf := fakeNginx(t, addr)
	nginxtest.Nginx(t, conf, addr, 0)
	direct := httptest.NewServer(fakeSite{})
	defer direct.Close()

	reqs := []parity.Request{
		{Path: "/"}, {Path: "/", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Method: "HEAD", Path: "/"},
		{Path: "/blog.md"}, {Path: "/api/posts.json"},
		{Path: "/blog/caf%C3%A9/photo.png"}, {Path: "/blog/café/photo.png"},
		{Path: "/blog"}, {Path: "/old"}, {Path: "/old/"},
		{Path: "/nope"}, {Path: "/nope/"}, {Path: "/404.html"}, {Path: "/index.html"},
		{Path: "/api/nope"}, {Path: "/api/caf%C3%A9%22%3C"}, {Path: "/x.json"},
		{Method: "POST", Path: "/"}, {Method: "DELETE", Path: "/api/posts.json"},
		{Method: "OPTIONS", Path: "/"},
		{Method: "OPTIONS", Path: "/api/posts.json", Header: map[string]string{"Access-Control-Request-Headers": "content-type"}},
		{Method: "OPTIONS", Path: "/api/posts.json"},
		{Path: "/blog/", Header: map[string]string{"Accept": "application/json"}},
		{Path: "/blog/", Header: map[string]string{"Accept": "text/markdown"}},
		{Path: "/blog/", Header: map[string]string{"Accept": "text/html"}},
		{Path: "/blog/?q=1"},
		{Path: "/", Header: map[string]string{"Range": "bytes=0-9"}},
		{Path: "/blog/caf%C3%A9/photo.png", Header: map[string]string{"Range": "bytes=0-9"}},
		// nginx's maps ignore case; the handler does not.
		{Path: "/API/POSTS.JSON"}, {Path: "/Blog/"}, {Path: "/OLD"}, {Path: "/Blog"},
		{Path: "/blog/CAF%C3%A9/photo.png"}, {Path: "/HEALTHZ"},
		// Bytes that are not UTF-8 are \ufffd in a problem's detail.
		{Path: "/api/%FF"}, {Path: "/api/x%E2%82y"}, {Path: "/api/%ED%A0%80%F0%9F%98%80%F4%90%80%80"}, {Path: "/api/%EF%BF%BD"},
		// The 404 page is a file with a .gz twin, served as any other;
		// problems stay as they are.
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Method: "HEAD", Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Method: "HEAD", Path: "/nope/"}, {Path: "/404.html", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "br"}},
		{Path: "/Blog/", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Path: "/nope", Header: map[string]string{"Accept-Encoding": "gzip", "Range": "bytes=0-9", "If-None-Match": "*"}},
		{Path: "/api/nope", Header: map[string]string{"Accept-Encoding": "gzip"}},
		{Path: "/x.json", Header: map[string]string{"Accept-Encoding": "gzip"}},
		// 405 and OPTIONS on the page that negotiates say Vary: Accept;
		// written in another case, it is no such page.
		{Method: "DELETE", Path: "/blog/"}, {Method: "OPTIONS", Path: "/blog/"},
		{Method: "POST", Path: "/Blog/"}, {Method: "OPTIONS", Path: "/BLOG/"},
		{Method: "OPTIONS", Path: "/blog/?x=1"},
	}
	for _, r := range reqs {
		a, err := parity.Do(direct.URL, r)
		if err != nil {
			t.Fatal(err)
		}
		b, err := parity.Do("http://"+addr, r)
		if err != nil {
			t.Fatal(err)
		}
		if d := parity.Diff(a, b); d != "" {
			t.Errorf("%s: handler vs nginx: %s", r, d)
		}
	}
}

// TestNginxGzipETag: the config sends a .gz twin with the server's plain
// ETag made into its gzip one; an export whose gzip ETag the server made
// otherwise is refused, naming the path, rather than served with a
// validator the server never sent.
func TestNginxGzipETag(t *testing.T) {
	site := &Site{Files: []File{
		{Path: "/", Name: "index.html", Header: http.Header{"Etag": {`"a"`}}, Gzip: true, GzipETag: `"b"`},
		{Path: "/404.html", Name: "404.html"},
	}}
	opts := NginxOptions{Root: "/srv/public", Self: "/srv/site.conf", Script: "/srv/site.js", NotFound: "/404.html"}
	if _, _, err := Nginx(site, opts); err == nil || !strings.Contains(err.Error(), `/: the server's ETag of the gzip body, "b", is not its plain ETag "a" with -gz`) {
		t.Errorf("gzip ETag \"b\" for \"a\": %v, want an error naming the path", err)
	}
	site.Files[0].GzipETag = `"a-gz"`
	if _, _, err := Nginx(site, opts); err != nil {
		t.Errorf("gzip ETag \"a-gz\": %v", err)
	}
}

// TestNginxScriptData: the njs script refuses paths by the rows it is
// given, in their order, and builds 304s and 412s from the maps the
// config writes; all of it is data (JSON), none of it program text.
func TestNginxScriptData(t *testing.T) {
	site, err := Write(filepath.Join(t.TempDir(), "public"), fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	_, script, err := Nginx(site, NginxOptions{Root: "/srv/public", Self: "/srv/site.conf", Script: "/srv/site.js",
		NotFound: "/404.html", Refusals: fakeRefusals})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`"refusals":[{"prefix":"/api/","suffix":"","cors":true,"problem":true},{"prefix":"/","suffix":".json","cors":false,"problem":true},{"prefix":"/","suffix":"","cors":false,"problem":false}]`,
		`["Etag","folio_h_etag"]`, `["Last-Modified","folio_h_last_modified"]`, `"root":"/srv/public"`,
	} {
		if !strings.Contains(string(script), want) {
			t.Errorf("the script lacks %s", want)
		}
	}
}
