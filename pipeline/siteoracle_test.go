package pipeline_test

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"folio/internal/hugotest"
	"folio/internal/siteoracle"
	"folio/pipeline"
)

// TestSiteOracle: for every fixture site, Hugo 0.165 builds it with the
// oracle theme and every URL it writes (pages, pagers, feeds, aliases,
// files) is one folio's site model publishes, the pages with Hugo's
// title and kind; and folio publishes nothing Hugo does not.
func TestSiteOracle(t *testing.T) {
	hugotest.Binary(t)
	for _, name := range fixtureSites(t) {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join("testdata/sites", name)
			hugo := hugotest.BuildSite(t, dir)
			snap := buildFixture(t, dir)
			report := hugotest.Compare(hugo, siteoracle.Outputs(snap), siteoracle.BasePath(snap.Config()))
			for _, l := range report.Diffs {
				t.Error(l)
			}
			t.Logf("%s: %s", name, report.Summary())
		})
	}
}

// buildFixture builds folio's snapshot of a fixture site, read as folio
// reads a Hugo site: the site's folder as the FS, its config found there.
func buildFixture(t *testing.T, dir string) *pipeline.Snapshot {
	t.Helper()
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{Root: dir}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range snap.Problems() {
		if p.Severity != pipeline.Warning {
			t.Errorf("problem: %s", p)
		}
	}
	return snap
}

// TestSiteOracleLinkedAssets: the files of assets/ that a multilingual
// site's Markdown links name are published where Hugo 0.165 publishes
// them (its embedded link hook's resources.Get), not only its images'.
func TestSiteOracleLinkedAssets(t *testing.T) {
	hugotest.Binary(t)
	dir := filepath.Join("testdata/sites", "assetlinks")
	report := hugotest.Compare(hugotest.BuildSite(t, dir), siteoracle.Outputs(buildFixture(t, dir)), "/")
	if n := report.Others["pipes"]; n != 0 || report.Classes["file"][0] != 4 {
		t.Errorf("%d files of assets/ Hugo publishes that folio does not; files: %v", n, report.Classes["file"])
	}
}
