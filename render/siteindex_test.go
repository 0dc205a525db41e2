package render

import (
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// The site suite (testdata/oracle/site) is a Hugo site of several
// sections, a bundle with a slug, permalinks, taxonomies and pages at the
// content root, whose pages ref each other every way Hugo allows. Its
// layout writes each page's content file and content; Hugo's content of
// each file is committed under hugo/<file>.html, and folio, reading the
// site as folio dev does (pipeline.LoadSite, the site model,
// NewSiteIndex), must write the same, URLs included.

var (
	siteSuite   = filepath.Join("testdata", "oracle", "site")
	mainContent = regexp.MustCompile(`(?s)<main data-folio-file="([^"]*)">(.*?)</main>`)
)

func TestOracleSiteHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	out := t.TempDir()
	cmd := exec.Command(bin, "--source", filepath.Join(siteSuite, "site"), "--destination", out, "--cacheDir", t.TempDir())
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
				oracleGolden(t, filepath.Join(siteSuite, "hugo", m[1]+".html"), m[2])
				n++
			}
		}
		return nil
	})
	if n != 8 {
		t.Errorf("%d pages with content, want 8", n)
	}
}

func TestOracleSite(t *testing.T) {
	dir := filepath.Join(siteSuite, "site")
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
	o := OptionsFor(cfg, os.DirFS(dir))
	o.Content = snap.FS()
	r, six := New(o), NewSiteIndex(snap)
	files := 0
	for _, p := range snap.AllPosts() {
		t.Run(p.File, func(t *testing.T) {
			want, err := os.ReadFile(filepath.Join(siteSuite, "hugo", strings.TrimPrefix(p.File, "content/")+".html"))
			if err != nil {
				t.Fatalf("%v (run TestOracleSiteHugo with -update where Hugo is installed)", err)
			}
			got := r.Render(p, six)
			if string(got.HTML) != string(want) {
				t.Errorf("folio's HTML differs from Hugo's\n--- folio:\n%s\n--- hugo:\n%s", got.HTML, want)
			}
			if got.Issues != nil {
				t.Errorf("issues: %v", got.Issues)
			}
		})
		files++
	}
	if files != 8 {
		t.Errorf("folio read %d content files, want 8", files)
	}
}
