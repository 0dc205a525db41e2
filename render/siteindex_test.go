package render

import (
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// The site suites are Hugo sites whose layout writes each page's content
// file and content; Hugo's content of each file is committed under
// hugo/<file>.html, and folio, reading the site as folio dev does
// (pipeline.LoadSite, the site model, ForSnapshot), must write the same,
// URLs included (Hugo's root-relative ones resolved against the page's,
// as a browser does: folio writes every URL absolute).
//
//   - site: several sections, a bundle with a slug, permalinks,
//     taxonomies and pages at the content root, whose pages ref each
//     other every way Hugo allows.
//   - sitewide: the site's own shortcodes and a link render hook that
//     see the whole site as Hugo's templates do: site.GetPage,
//     .Site.Pages, .Site.RegularPages, .Site.Sections, .Site.Home,
//     .Site.Taxonomies (ByCount, Alphabetical, weights), a section's
//     .Pages, .Sections and .Parent, .GetTerms, where and sort over
//     pages, ref and relref from templates; drafts, an unlisted page,
//     list pages dated by their pages.
//   - brokenref: refs and relrefs to no page, in links, bare and from a
//     template, under refLinksErrorLevel "warning" and
//     refLinksNotFoundURL (TestOracleBrokenRefsHugo builds it at Hugo's
//     default level, where each is an error).
//   - nested: bundles in folders of the posts section that are not
//     sections, linking to their own and each other's files, and to
//     paths below them the bundle does not hold: as written, no issue.
//   - multilang: three languages, whose bundles' pages link their own
//     and each other language's files, as Hugo's embedded link and image
//     hooks resolve them (.Resources.Get).
var siteSuites = []struct {
	name  string
	pages int // the pages with a content file Hugo renders
	// issues: folio's issues of each page are committed under
	// issues/<file>.txt; otherwise a page must have none.
	issues bool
}{{"site", 8, false}, {"sitewide", 12, false}, {"brokenref", 2, true}, {"nested", 2, false}, {"multilang", 6, false}, {"multiref", 5, true}, {"multimount", 7, false}, {"multiassets", 4, false}, {"multisite", 2, false}, {"multires", 2, false}}

var mainContent = regexp.MustCompile(`(?s)<main data-folio-file="([^"]*)">(.*?)</main>`)

func siteSuiteDir(name string) string { return filepath.Join("testdata", "oracle", name) }

func TestOracleSiteHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	for _, s := range siteSuites {
		t.Run(s.name, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, "--source", filepath.Join(siteSuiteDir(s.name), "site"), "--destination", out, "--cacheDir", t.TempDir())
			cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, msg)
			}
			n := 0
			_ = filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
				if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
					return err
				}
				data, _ := os.ReadFile(p)
				for _, m := range mainContent.FindAllStringSubmatch(string(data), -1) {
					if m[1] != "" {
						oracleGolden(t, filepath.Join(siteSuiteDir(s.name), "hugo", m[1]+".html"), m[2])
						n++
					}
				}
				return nil
			})
			if n != s.pages {
				t.Errorf("%d pages with content, want %d", n, s.pages)
			}
		})
	}
}

func TestOracleSite(t *testing.T) {
	for _, s := range siteSuites {
		t.Run(s.name, func(t *testing.T) {
			dir := filepath.Join(siteSuiteDir(s.name), "site")
			snap := loadSiteSuite(t, dir)
			r, res := ForSnapshot(snap)
			files := 0
			for _, p := range snap.AllPosts() {
				if !snap.Visible(p) {
					continue
				}
				t.Run(p.File, func(t *testing.T) {
					file := strings.TrimPrefix(p.File, "content/")
					want, err := os.ReadFile(filepath.Join(siteSuiteDir(s.name), "hugo", file+".html"))
					if err != nil {
						t.Fatalf("%v (run TestOracleSiteHugo with -update where Hugo is installed)", err)
					}
					got := r.Render(p, res)
					page, _ := url.Parse(res.(*SiteIndex).URL(p))
					if g, w := folioSide(string(got.HTML)), hugoSideAt(string(want), page); g != w {
						t.Errorf("folio's HTML differs from Hugo's\n--- folio:\n%s\n--- hugo:\n%s", g, w)
					}
					if s.issues {
						oracleGolden(t, filepath.Join(siteSuiteDir(s.name), "issues", file+".txt"), severityText(got.Issues))
					} else if got.Issues != nil {
						t.Errorf("issues: %v", got.Issues)
					}
					oracleGolden(t, filepath.Join(siteSuiteDir(s.name), "md", file+".md"), got.Markdown)
				})
				files++
			}
			if files != s.pages {
				t.Errorf("folio rendered %d content files, want %d", files, s.pages)
			}
		})
	}
}

// loadSiteSuite reads a fixture site as folio dev does.
func loadSiteSuite(t *testing.T, dir string) *pipeline.Snapshot {
	t.Helper()
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir, Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	snap, err := pipeline.Build(os.DirFS(dir), cfg, pipeline.Options{}, oracleNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pipeline.Errors(snap.Problems()) {
		t.Errorf("fixture: %s", p)
	}
	return snap
}

// severityText is issues one a line, with their severity.
func severityText(issues []Issue) string {
	var b strings.Builder
	for _, is := range issues {
		fmt.Fprintf(&b, "%d: %s: %s\n", is.Line, is.Severity, is.Message)
	}
	return b.String()
}

// TestOracleBrokenRefsHugo: at Hugo's default refLinksErrorLevel, each
// ref to no page is an error (REF_NOT_FOUND) and Hugo builds nothing;
// folio reports each as an error at the line Hugo names (and at the
// call's line a ref from a template, which Hugo names by page only),
// and renders the page all the same.
func TestOracleBrokenRefsHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	dir := filepath.Join(siteSuiteDir("brokenref"), "site")
	cmd := exec.Command(bin, "--source", dir, "--destination", t.TempDir(), "--cacheDir", t.TempDir())
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production", "HUGO_REFLINKSERRORLEVEL=error")
	msg, err := cmd.CombinedOutput()
	if err == nil {
		t.Fatalf("hugo built a site with refs to no page:\n%s", msg)
	}
	var hugoLines []int
	notFound := 0
	for _, line := range strings.Split(string(msg), "\n") {
		if !strings.Contains(line, "ERROR") || !strings.Contains(line, "REF_NOT_FOUND") {
			continue
		}
		notFound++
		if m := refPosition.FindStringSubmatch(line); m != nil {
			n, _ := strconv.Atoi(m[1])
			hugoLines = append(hugoLines, n)
		}
	}
	if notFound == 0 || len(hugoLines) == 0 {
		t.Fatalf("no REF_NOT_FOUND error with a line in Hugo's output:\n%s", msg)
	}

	snap := loadSiteSuite(t, dir)
	r, res := ForSnapshot(snap)
	o := r.opts
	o.RefLinksWarning, o.RefLinksNotFoundURL = false, "" // Hugo's defaults
	r = New(o)
	var p *pipeline.Post
	for _, q := range snap.AllPosts() {
		if strings.HasSuffix(q.File, "posts/a.md") {
			p = q
		}
	}
	got := r.Render(p, res)
	var folioLines []int
	for _, is := range got.Issues {
		if is.Severity != pipeline.Error {
			t.Errorf("line %d: %s is a %s, want an error", is.Line, is.Message, is.Severity)
		}
		folioLines = append(folioLines, is.Line)
	}
	if len(folioLines) != notFound {
		t.Errorf("folio reports %d refs to no page (%v), Hugo %d", len(folioLines), got.Issues, notFound)
	}
	for _, n := range hugoLines {
		if !slices.Contains(folioLines, n) {
			t.Errorf("Hugo names line %d, folio's issues %v do not", n, got.Issues)
		}
	}
	if !strings.Contains(string(got.HTML), "First line.") || !strings.Contains(string(got.HTML), "good one") {
		t.Errorf("the page is not rendered around its broken refs:\n%s", got.HTML)
	}
}

// refPosition is the line in a REF_NOT_FOUND message's position.
var refPosition = regexp.MustCompile(`a\.md:(\d+):\d+`)

// TestSiteListsShared: the renderings of one snapshot share its lists,
// made once by whichever asks first; renderings at once all see them
// whole (run with -race).
func TestSiteListsShared(t *testing.T) {
	snap := loadSiteSuite(t, filepath.Join(siteSuiteDir("sitewide"), "site"))
	r, res := ForSnapshot(snap)
	var posts []*pipeline.Post
	for _, p := range snap.AllPosts() {
		if snap.Visible(p) {
			posts = append(posts, p)
		}
	}
	want := map[*pipeline.Post]string{}
	for _, p := range posts {
		want[p] = string(r.Render(p, res).HTML)
	}
	_, res = ForSnapshot(snap) // a new index: its lists not made yet
	var wg sync.WaitGroup
	for range 4 {
		for _, p := range posts {
			wg.Go(func() {
				if got := string(r.Render(p, res).HTML); got != want[p] {
					t.Errorf("%s rendered at once with others differs:\n%s\nwant\n%s", p.File, got, want[p])
				}
			})
		}
	}
	wg.Wait()
}
