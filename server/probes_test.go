package server

import (
	"net/http/httptest"
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
