package server

import (
	"io/fs"
	"net/http/httptest"
	"os"
	"testing"

	"folio/internal/probes"
	"folio/pipeline"
)

// TestAgentProbes runs the readiness probes agents and their graders use
// against the fixture site, served as folio serve serves it and as folio
// dev does (whose documented differences, no CORS and no-cache, are not
// what the probes ask).
func TestAgentProbes(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	probes.Check(t, probes.Site{Base: ts.URL + "/", Emitted: "https://example.org/"})

	dev := httptest.NewServer(newServer(t, build(t, sampleSite(), pipeline.Options{}), true))
	t.Cleanup(dev.Close)
	t.Run("dev", func(t *testing.T) {
		probes.Check(t, probes.Site{Base: dev.URL + "/", Emitted: "https://example.org/"})
	})
}

// TestAgentProbesHugoSites runs the probes against the Hugo fixture sites
// (pipeline/testdata/sites): every page kind, in every language, has its
// twin; a multilingual site's / sends to its default language's home.
func TestAgentProbesHugoSites(t *testing.T) {
	for _, name := range []string{"blog", "yaml", "json", "multidir", "configdir", "rootless"} {
		t.Run(name, func(t *testing.T) {
			dir := "../pipeline/testdata/sites/" + name
			cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
			if err != nil {
				t.Fatal(err)
			}
			snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{Root: dir}, fixtureNow)
			if err != nil {
				t.Fatal(err)
			}
			ts := httptest.NewServer(newServer(t, snap, false))
			t.Cleanup(ts.Close)
			_, own := fs.Stat(os.DirFS(dir), "static/robots.txt")
			probes.Check(t, probes.Site{Base: ts.URL + "/", Emitted: cfg.BaseURL, OwnRobots: own == nil})
		})
	}
}
