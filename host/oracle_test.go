package host

import (
	"os"
	"path/filepath"
	"testing"

	"folio/internal/hugotest"
	"folio/internal/siteoracle"
	"folio/pipeline"
)

// TestHTTPOracle: for every fixture site of pipeline's TestSiteOracle,
// Hugo 0.165 builds it with the oracle theme, and folio, loaded as serve
// loads a site folder, answers every URL Hugo wrote as Hugo's output
// does: each page in HTML and, negotiated or at its .md twin, in
// Markdown; each feed in RSS; each alias with a 301 to its target; each
// file with Hugo's bytes. And folio has no problem with the site (check
// exits 0, build writes it): Hugo built it.
func TestHTTPOracle(t *testing.T) {
	bin := hugotest.Binary(t)
	sites, err := filepath.Glob("../pipeline/testdata/sites/*")
	if err != nil || len(sites) == 0 {
		t.Fatalf("no fixture sites: %v", err)
	}
	for _, dir := range sites {
		if info, err := os.Stat(dir); err != nil || !info.IsDir() {
			continue
		}
		t.Run(filepath.Base(dir), func(t *testing.T) {
			t.Parallel()
			out := filepath.Join(t.TempDir(), "public")
			hugo, err := hugotest.BuildWith(bin, dir, t.TempDir(), out)
			if err != nil {
				t.Fatal(err)
			}
			abs, _ := filepath.Abs(dir)
			h, err := Load(Spec{Source: abs})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			r := siteoracle.Answers(h.Server(), hugo, out, siteoracle.BasePath(h.Snapshot().Config()))
			for _, d := range r.Diffs {
				t.Error(d)
			}
			// Hugo built the site: what Hugo accepts and publishes is
			// never a problem, so check passes and build writes it.
			for _, p := range pipeline.Errors(h.Problems(h.RenderAll())) {
				t.Errorf("Hugo builds the site, folio refuses it: %s", p)
			}
			t.Logf("%s: %s", filepath.Base(dir), r.Summary())
		})
	}
}
