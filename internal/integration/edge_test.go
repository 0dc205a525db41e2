package integration

import (
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"folio/internal/edgetest"
	"folio/internal/parity"
)

// TestCloudflareParity builds each site with --cloudflare, runs the
// project under wrangler dev --local (workerd, offline), and asks it and
// folio serve the same requests: the suite every host is held to
// (parity.Suite), with serve's ETags sent to both and random Accept
// headers. CI runs it on the sample, the parity site, the legacy site and
// every Hugo fixture site (pipeline/testdata/sites); locally the sample
// blog alone, with 300 headers. A client must not be able to tell them
// apart but by the coding Cloudflare chooses and Last-Modified; then the
// agents' probes run against the Worker.
func TestCloudflareParity(t *testing.T) {
	edgetest.Need(t)
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	sites := []staticSite{
		// The sample has no baseURL: both are given the same.
		{name: "sample", config: filepath.Join(root, "config.toml"), content: filepath.Join(root, "content"), emitted: "https://blog.example.org/", random: 300,
			args: []string{"--base-url", "https://blog.example.org/"}},
	}
	// The whole suite is CI's (a minute on two cores); locally the sample
	// blog with fewer random headers keeps go test ./... short.
	if os.Getenv("CI") == "true" {
		ps := paritySite(t)
		sites[0].random = 2000
		legacy := filepath.Join(root, "pipeline", "testdata", "sites", "legacy")
		sites = append(sites,
			staticSite{name: "parity", config: ps.Config, content: ps.Content, extra: parityExtra, emitted: "https://example.org/", random: 2000},
			staticSite{name: "legacy", config: filepath.Join(legacy, "config.toml"), content: filepath.Join(legacy, "content"), emitted: "https://notes.example.org/", random: 2000})
		// The Hugo fixture sites, each in its own folder (--source): every
		// page kind, taxonomies, languages, bundles and static files.
		fixtures, err := filepath.Glob(filepath.Join(root, "pipeline", "testdata", "sites", "*"))
		if err != nil || len(fixtures) == 0 {
			t.Fatalf("no fixture sites: %v", err)
		}
		for _, dir := range fixtures {
			if info, err := os.Stat(dir); err != nil || !info.IsDir() || filepath.Base(dir) == "legacy" {
				continue
			}
			sites = append(sites, fixtureSite(dir, 200))
		}
	}
	total := parity.Stats{}
	for _, s := range sites {
		t.Run(s.name, func(t *testing.T) {
			st := cloudflareParity(t, s)
			total.Requests += st.Requests
			total.Paths += st.Paths
			total.Negotiating += st.Negotiating
			total.Differences += st.Differences
		})
	}
	t.Logf("Cloudflare Worker vs serve: %s", total)
}

func cloudflareParity(t *testing.T, s staticSite) parity.Stats {
	dir := filepath.Join(t.TempDir(), "site")
	build := exec.Command(folio, append([]string{"build", "--cloudflare", dir}, s.flags()...)...)
	if b, err := build.CombinedOutput(); err != nil {
		t.Fatalf("folio build --cloudflare: %v\n%s", err, b)
	}
	edge := edgetest.Dev(t, dir)
	p := start(t, nil, append([]string{"serve", "--addr", "127.0.0.1:0"}, s.flags()...)...)
	paths := withIndexes(t, p.URL, exportedPaths(t, filepath.Join(dir, "public")))
	// The Worker answers every alias with its 301: public/ holds no
	// alias page that Cloudflare's asset server could answer 200 with.
	filepath.WalkDir(filepath.Join(dir, "public"), func(name string, d fs.DirEntry, err error) error {
		if err == nil && strings.HasSuffix(name, ".html") {
			if data, _ := os.ReadFile(name); strings.Contains(string(data), `http-equiv="refresh"`) {
				t.Errorf("public/ holds an alias page: %s", name)
			}
		}
		return err
	})
	st := parity.Suite{
		Serve: p.URL, Host: edge, Paths: paths, Diff: parity.EdgeDiff, SameETags: true, Random: s.random,
		Encodings: []string{"gzip", "identity", "gzip;q=0", "gzip, deflate"},
		Extra:     s.extra,
	}.Run(t)
	t.Logf("%s: %s", s.name, st)
	s.checkHost(t, edge, st)
	return st
}

// parityExtra are the requests paritySite has answers for of its own:
// aliases (in every case), the escaped slug, the bundle files and their
// ranges, a scheduled post.
var parityExtra = []parity.Request{
	{Path: "/blog/later/"}, {Path: "/blog/later.md"},
	{Path: "/blog"}, {Path: "/blog/caf%C3%A9"}, {Path: "/old/cafe"}, {Path: "/old/cafe/"}, {Path: "/blog/kaffee"},
	{Path: "/blog/caf%C3%A9/"}, {Path: "/blog/caf%c3%a9/"}, {Path: "/blog/caf%C3%A9/?utm=x"}, {Path: "/blog/caf%C3%A9.md"},
	{Method: "HEAD", Path: "/old/cafe"}, {Method: "OPTIONS", Path: "/old/cafe"}, {Method: "POST", Path: "/blog/kaffee"},
	{Path: "/Blog/"}, {Path: "/BLOG/TRIP/"}, {Path: "/blog/Trip/"}, {Path: "/blog/TRIP.md"}, {Path: "/Blog.md"},
	{Path: "/blog/trip/PHOTO.svg"}, {Path: "/blog/TRIP/photo.svg"}, {Path: "/blog/CAF%C3%89/"}, {Path: "/sdk/Blog-Client.js"},
	{Path: "/Blog"}, {Path: "/blog/Trip"}, {Path: "/OLD/CAFE/"}, {Path: "/old/Cafe"}, {Path: "/blog/Kaffee"},
	{Path: "/Old/Cafe/"}, {Path: "/Old/Cafe"}, {Path: "/OLD/cafe/"}, {Path: "/Blog/Caf%C3%A9/"}, {Path: "/Blog/Caf%C3%A9"}, {Path: "/Blog/caf%C3%A9/"},
	{Path: "/Blog/", Header: map[string]string{"Accept": "text/markdown"}},
	{Path: "/blog/%FF.md"}, {Path: "/blog/%E2%82.md"}, {Path: "/blog/caf%C3%A9%FF.md"},
	{Path: "//blog/"}, {Path: "/blog//trip/"}, {Path: "/blog/./trip/"}, {Path: "/blog/trip/../trip.md"}, {Path: "/blog/nope/%2E%2E/trip/"},
	{Path: "/blog/trip/%2e%2e/caf%C3%A9/"}, {Path: "/blog/trip/photo.svg/..", Header: map[string]string{"Accept": "text/markdown"}},
	{Path: "/blog/trip/."}, {Path: "/blog/trip/%2e"}, {Path: "/blog/trip/photo.svg/%2E%2E"}, {Path: "/blog%2ftrip/"}, {Path: "/blog/trip%2Fphoto.svg"},
	{Path: "/api%2Fposts.json"}, {Path: "/api/posts%2Fcursor/0.json"}, {Path: "/blog/caf%C3%A9%2F"},
	{Method: "POST", Path: "/blog/"}, {Method: "OPTIONS", Path: "/blog//trip/"}, {Method: "PUT", Path: "/blog/caf%C3%A9/"},
	{Method: "OPTIONS", Path: "/BLOG/TRIP/"}, {Method: "DELETE", Path: "/Blog/"}, {Method: "POST", Path: "/blog/trip.md"},
	{Method: "OPTIONS", Path: "/blog/nope/"}, {Method: "OPTIONS", Path: "/blog/trip.md", Header: map[string]string{"Access-Control-Request-Headers": "x-y"}},
	{Path: "/blog/trip/", Header: map[string]string{"Range": "bytes=0-99"}},
	{Path: "/blog/trip/", Header: map[string]string{"If-None-Match": "*"}},
	{Path: "/blog/trip/photo.svg", Header: map[string]string{"Range": "bytes=0-9"}},
	{Path: "/blog/trip/", Header: map[string]string{"Accept": "application/json", "Accept-Encoding": "gzip"}},
	// The bundle file too large to keep in memory: serve streams it with
	// Go's ServeContent, ranges and preconditions included.
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-99"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=100-"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=-100"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=5242870-5242900"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=9999999-"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=5-1"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "items=0-9"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-0,-1,0-99999999"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9", "If-Range": `"nope"`}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=0-9", "If-Range": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-Match": `"nope"`}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-Match": "*"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-Unmodified-Since": "Sat, 01 Jan 2000 00:00:00 GMT"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-Modified-Since": "Fri, 01 Jan 2100 00:00:00 GMT"}},
	{Path: "/blog/trip/video.bin", Header: map[string]string{"If-None-Match": `W/"x", *`}},
	{Method: "HEAD", Path: "/blog/trip/video.bin", Header: map[string]string{"Range": "bytes=10-19"}},
	{Method: "HEAD", Path: "/blog/trip/video.bin", Header: map[string]string{"If-Match": `"nope"`}},
}

// TestCloudflareContentIsData: a post whose slug, title and alias hold
// what would break a program made from text (quotes, a backslash,
// template syntax, U+2028, </script>) is answered as serve answers it,
// and wrangler deploy --dry-run bundles the Worker with its table and
// reads public/ as a deploy would.
func TestCloudflareContentIsData(t *testing.T) {
	edgetest.Need(t)
	nasty := "q\"b${d}\u2028e`f<x>" // a slug holds no backslash (folio refuses it as a slash)
	s := newSite(t, "", map[string]string{
		"blog/a.md": "---\ntitle: 'A " + nasty + " \\ </script> title'\ndate: 2026-01-05T10:00:00Z\nslug: '" + nasty + "'\naliases: ['/old/" + nasty + "/']\n---\nBody with " + nasty + " \\ </script>.\n",
	})
	dir := filepath.Join(s.Dir, "cf")
	if b, err := exec.Command(folio, "build", "--config", s.Config, "--cloudflare", dir).CombinedOutput(); err != nil {
		t.Fatalf("folio build --cloudflare: %v\n%s", err, b)
	}
	out, err := edgetest.DryRun(t, dir)
	if err != nil {
		t.Fatalf("wrangler deploy --dry-run: %v\n%s", err, out)
	}
	for _, want := range []string{"env.ASSETS", "Total Upload"} {
		if !strings.Contains(out, want) {
			t.Errorf("wrangler deploy --dry-run says no %q:\n%s", want, out)
		}
	}
	if m, _ := filepath.Glob(filepath.Join(dir, "public", "*.gz")); len(m) > 0 {
		t.Errorf("public/ holds .gz twins (Cloudflare compresses): %v", m)
	}
	edge := edgetest.Dev(t, dir)
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	paths := exportedPaths(t, filepath.Join(dir, "public"))
	// Hugo's URL rules take the slug's odd characters out of the page's
	// URL (/blog/qbd-efx/); the alias, a redirect, keeps them as written.
	var page string
	for _, path := range paths {
		if strings.HasPrefix(path, "/blog/") && strings.HasSuffix(path, "-efx/") {
			page = path
		}
	}
	if page == "" {
		t.Fatalf("no page at the slug among %v", paths)
	}
	alias := (&url.URL{Path: "/old/" + nasty + "/"}).EscapedPath()
	st := parity.Suite{Serve: p.URL, Host: edge, Paths: paths, Diff: parity.EdgeDiff, SameETags: true,
		Extra: []parity.Request{{Path: strings.TrimSuffix(page, "/")}, {Path: page, Header: map[string]string{"Accept": "text/markdown"}}, {Path: alias}}}.Run(t)
	if a, err := parity.Do(edge, parity.Request{Path: page}); err != nil || a.Status != 200 || !strings.Contains(string(a.Body), "Body with") {
		t.Errorf("the Worker's answer at %s: %v %v", page, a, err)
	}
	t.Logf("%s", st)
}
