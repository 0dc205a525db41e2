package export

import (
	"encoding/json"
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

// indexSite is the fake site with a static folder, report/, whose
// index.html the server answers at the folder's URL and at its own, as
// folio serve answers a site's static/report/index.html (over 1 KiB: it
// has a gzip answer). other, when set, answers /report/index.html with
// other bytes.
type indexSite struct {
	fakeSite
	other bool
}

var reportHTML = "<!doctype html><title>report</title>" + strings.Repeat("<p>a static report</p>\n", 60)

func (s indexSite) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
	case r.URL.Path == "/report/", r.URL.Path == "/report/index.html" && !s.other:
		body(w, r, "text/html; charset=utf-8", reportHTML, "")
		return
	case r.URL.Path == "/report/index.html":
		body(w, r, "text/html; charset=utf-8", "<!doctype html><title>another</title>", "")
		return
	}
	s.fakeSite.ServeHTTP(w, r)
}

// exportIndexSite writes indexSite's export, its folder listed as
// ExportPaths lists it (at "/report/") and its file's own URL among
// Options.Indexes.
func exportIndexSite(t *testing.T, h http.Handler, noGzip bool) (string, *Site, error) {
	t.Helper()
	root := filepath.Join(t.TempDir(), "public")
	o := fakeOptions
	o.NoGzip = noGzip
	o.Indexes = []string{"/report/index.html"}
	site, err := Write(root, h, append([]string{"/report/"}, fakePaths...), o)
	return root, site, err
}

// TestIndexes: a static folder's index.html, exported at the folder's
// URL, answers at its own URL too, in the nginx config and in the
// Worker's table, with the folder's file and headers.
func TestIndexes(t *testing.T) {
	root, site, err := exportIndexSite(t, indexSite{}, false)
	if err != nil {
		t.Fatal(err)
	}
	if want := []Index{{Path: "/report/index.html", Route: "/report/"}}; fmt.Sprint(site.Indexes) != fmt.Sprint(want) {
		t.Errorf("Site.Indexes = %v, want %v", site.Indexes, want)
	}
	conf := filepath.Join(filepath.Dir(root), "site.conf")
	c, _, err := Nginx(site, NginxOptions{Root: root, Listen: "127.0.0.1:8080", Self: conf, Script: ScriptPath(conf), NotFound: "/404.html", Refusals: fakeRefusals})
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range []string{`"/report/" "/report/index.html";`, `"/report/index.html" "/report/index.html";`} {
		if !strings.Contains(string(c), line) {
			t.Errorf("the nginx config has no %s", line)
		}
	}

	_, cfSite, err := exportIndexSite(t, indexSite{}, true)
	if err != nil {
		t.Fatal(err)
	}
	p, err := Cloudflare(cfSite, nil, CloudflareOptions{NotFound: "/404.html", Refusals: fakeRefusals, Name: "fake"})
	if err != nil {
		t.Fatal(err)
	}
	var d workerData
	if err := json.Unmarshal(p.Data, &d); err != nil {
		t.Fatal(err)
	}
	folder, own := d.Routes["/report/"], d.Routes["/report/index.html"]
	if folder.File != "/report/index.html" || own != folder {
		t.Errorf("the Worker's routes: /report/ %+v, /report/index.html %+v; want both the folder's file", folder, own)
	}
}

// TestIndexesRefused: an index.html that is no exported folder's, or
// that the server answers otherwise than its folder, fails the export
// rather than being answered with the folder's file.
func TestIndexesRefused(t *testing.T) {
	if _, _, err := exportIndexSite(t, indexSite{other: true}, false); err == nil || !strings.Contains(err.Error(), "/report/index.html answers otherwise than /report/") {
		t.Errorf("an index.html answered otherwise: %v, want an error naming it", err)
	}
	o := fakeOptions
	o.Indexes = []string{"/blog/caf%C3%A9/index.html"}
	if _, err := Write(filepath.Join(t.TempDir(), "public"), indexSite{}, fakePaths, o); err == nil || !strings.Contains(err.Error(), "not the index.html of an exported folder") {
		t.Errorf("the index.html of no exported folder: %v, want an error", err)
	}
}

// TestNginxIndexParity serves indexSite's export with real nginx and asks
// it, at both URLs of the folder's file, what the handler is asked.
func TestNginxIndexParity(t *testing.T) {
	addr := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	root, site, err := exportIndexSite(t, indexSite{}, false)
	if err != nil {
		t.Fatal(err)
	}
	conf := filepath.Join(filepath.Dir(root), "site.conf")
	c, s, err := Nginx(site, NginxOptions{Root: root, Listen: addr, Self: conf, Script: ScriptPath(conf), NotFound: "/404.html", Refusals: fakeRefusals})
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(conf, c, 0o644)
	os.WriteFile(ScriptPath(conf), s, 0o644)
	nginxtest.Nginx(t, conf, addr, 0)
	direct := httptest.NewServer(indexSite{})
	defer direct.Close()
	a, err := parity.Do(direct.URL, parity.Request{Path: "/report/"})
	if err != nil {
		t.Fatal(err)
	}
	tag := a.Header.Get("ETag")
	for _, p := range []string{"/report/", "/report/index.html"} {
		for _, r := range []parity.Request{
			{Path: p}, {Method: "HEAD", Path: p},
			{Path: p, Header: map[string]string{"Accept-Encoding": "gzip"}},
		} {
			checkParity(t, direct.URL, "http://"+addr, r)
		}
		// The fake handler does not revalidate; serve does, and so
		// does nginx, with the folder's ETags.
		for _, h := range []map[string]string{{"If-None-Match": tag}, {"Accept-Encoding": "gzip", "If-None-Match": strings.TrimSuffix(tag, `"`) + `-gz"`}} {
			if b, err := parity.Do("http://"+addr, parity.Request{Path: p, Header: h}); err != nil || b.Status != http.StatusNotModified {
				t.Errorf("nginx, %s %v: %v %v, want 304", p, h, b, err)
			}
		}
	}
	// Only the file's own name: another case, or another name, is none.
	for _, p := range []string{"/report/Index.html", "/report/index.htm", "/report/index.html/", "/report"} {
		checkParity(t, direct.URL, "http://"+addr, parity.Request{Path: p})
	}
}

// checkParity asks the handler at direct and nginx at static r.
func checkParity(t *testing.T, direct, static string, r parity.Request) {
	t.Helper()
	a, err := parity.Do(direct, r)
	if err != nil {
		t.Fatal(err)
	}
	b, err := parity.Do(static, r)
	if err != nil {
		t.Fatal(err)
	}
	if d := parity.Diff(a, b); d != "" {
		t.Errorf("%s: handler vs nginx: %s", r, d)
	}
}
