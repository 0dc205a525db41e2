package site_test

import (
	"net"
	"net/http/httptest"
	"os"
	"os/exec"
	"testing"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/site"
)

// startFixture serves test/content with the embedded theme on a free port
// of 127.0.0.1 and returns the base URL. The base URL is the bound address,
// as folio serve makes it when the config has none, so the page's scripts
// and API calls stay same-origin under the CSP.
func startFixture(t testing.TB) string {
	t.Helper()
	return startSite(t, "test/config.toml")
}

// startSite serves the site of a config file as startFixture does.
func startSite(t testing.TB, config string) string {
	t.Helper()
	cfg, err := pipeline.LoadConfig(config)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	cfg.BaseURL, cfg.BaseSet = "http://"+ln.Addr().String()+"/", true
	snap, err := pipeline.Build(os.DirFS(cfg.ContentDir), cfg, pipeline.Options{Root: cfg.ContentDir}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	// The fixture's empty category is a warning (Hugo leaves it out); only
	// errors are the fixture's problems.
	for _, p := range pipeline.Errors(snap.Problems()) {
		t.Errorf("fixture problem: %s", p)
	}
	srv, err := server.New(snap, server.Options{Site: site.FS})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewUnstartedServer(srv)
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	t.Cleanup(ts.Close)
	return cfg.BaseURL
}

// tool finds an external program the test needs. Missing, the test is
// skipped, except in CI (CI=true), where it fails: CI must run it.
func tool(t *testing.T, names ...string) string {
	t.Helper()
	for _, name := range names {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	if os.Getenv("CI") == "true" {
		t.Fatalf("%v not found; CI must run this test", names)
	}
	t.Skipf("%v not found", names)
	return ""
}
