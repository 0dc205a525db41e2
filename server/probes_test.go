package server

import (
	"testing"

	"folio/internal/probes"
)

// TestAgentProbes runs the readiness probes agents and their graders use
// against the fixture site, served as folio serve serves it, and against
// folio dev (same answers, but for dev's documented differences).
func TestAgentProbes(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	probes.Check(t, probes.Site{Base: ts.URL + "/", Emitted: "https://example.org/"})
}
