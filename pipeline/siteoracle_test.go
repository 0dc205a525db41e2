package pipeline

import (
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"folio/internal/hugotest"
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
			report := compareSite(snap, hugo)
			for _, l := range report.diffs {
				t.Error(l)
			}
			t.Logf("%s: %d of %d Hugo URLs answered (%s)", name, report.matched, report.hugo, report.classes())
		})
	}
}

// buildFixture builds folio's snapshot of a fixture site, read as folio
// reads a Hugo site: the site's folder as the FS, its config found there.
func buildFixture(t *testing.T, dir string) *Snapshot {
	t.Helper()
	cfg, err := LoadSite(SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := Build(os.DirFS(dir), cfg, Options{Root: dir}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range snap.Problems() {
		if p.Severity != Warning {
			t.Errorf("problem: %s", p)
		}
	}
	return snap
}

// siteReport is a comparison of Hugo's URLs with folio's routes.
type siteReport struct {
	hugo, matched int
	perClass      map[string][2]int // class → matched, total
	diffs         []string
}

func (r siteReport) classes() string {
	var out []string
	for _, c := range []string{"page", "feed", "alias", "file"} {
		if n := r.perClass[c]; n[1] > 0 {
			out = append(out, fmt.Sprintf("%s %d/%d", c, n[0], n[1]))
		}
	}
	return strings.Join(out, ", ")
}

// compareSite compares Hugo's output with the snapshot's routes. Hugo's
// sitemaps are left out: folio writes its own /sitemap.xml.
func compareSite(snap *Snapshot, hugo map[string]hugotest.Output) siteReport {
	r := siteReport{perClass: map[string][2]int{}}
	base := "/"
	if u, err := url.Parse(snap.Config().BaseURL); err == nil && u.Path != "" {
		base = u.Path
	}
	routes := map[string]Route{}
	for _, rt := range snap.Routes() {
		routes[rt.Path] = rt
	}
	for _, p := range sortedOutputs(hugo) {
		o := hugo[p]
		if o.Class == "sitemap" {
			continue
		}
		r.hugo++
		n := r.perClass[o.Class]
		n[1]++
		rt, ok := routes[p]
		delete(routes, p)
		switch {
		case !ok:
			r.diffs = append(r.diffs, fmt.Sprintf("missing %s %s %q", o.Class, p, o.Title))
		case routeClass(rt) != o.Class:
			r.diffs = append(r.diffs, fmt.Sprintf("%s: hugo %s, folio %s", p, o.Class, routeClass(rt)))
		case o.Class == "page" && (rt.Page.Title != o.Title || rt.Page.Kind != o.Kind || rt.Page.Lang != o.Lang):
			r.diffs = append(r.diffs, fmt.Sprintf("%s: hugo %s %q (%s), folio %s %q (%s)", p, o.Kind, o.Title, o.Lang, rt.Page.Kind, rt.Page.Title, rt.Page.Lang))
		case o.Class == "alias" && base+strings.TrimPrefix(rt.Target, "/") != strings.TrimSuffix(o.Target, "index.html"):
			// (Hugo links an ugly site's sections as /blog/index.html,
			// folio as /blog/: the same file.)
			r.diffs = append(r.diffs, fmt.Sprintf("%s: alias to %s, folio to %s", p, o.Target, rt.Target))
		default:
			r.matched++
			n[0]++
		}
		r.perClass[o.Class] = n
	}
	var extra []string
	for p, rt := range routes {
		extra = append(extra, fmt.Sprintf("extra %s %s", routeClass(rt), p))
	}
	slices.Sort(extra)
	r.diffs = append(r.diffs, extra...)
	return r
}

func sortedOutputs(m map[string]hugotest.Output) []string {
	var out []string
	for p := range m {
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

func routeClass(r Route) string {
	switch r.Kind {
	case RoutePage, RoutePager:
		return "page"
	case RouteFeed:
		return "feed"
	case RouteAlias:
		return "alias"
	}
	return "file"
}
