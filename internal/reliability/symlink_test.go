package reliability

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// symlinkSite writes a site whose content folder holds symbolic links
// that point outside it, in every place a post or a file can be: a post
// file, a bundle folder, a bundle's index.md, bundle resources (relative
// and absolute targets). Outside, the targets are valid posts and files
// marked TOPSECRET. It returns the site folder and the guessed URLs of
// what the links would publish.
func symlinkSite(t *testing.T) (string, []string) {
	dir := t.TempDir()
	outside := filepath.Join(dir, "outside")
	writeTree(t, dir, outsideFiles)
	writeTree(t, outside, map[string]string{
		"post.md":         "---\ntitle: TOPSECRET linked post\ndate: 2020-01-01\n---\nTOPSECRET-LINKED\n",
		"bundle/index.md": "---\ntitle: TOPSECRET linked bundle\ndate: 2020-01-01\n---\nTOPSECRET-BUNDLE\n",
		"bundle/file.txt": "TOPSECRET-BUNDLE-FILE\n",
	})
	content := filepath.Join(dir, "content")
	writeTree(t, content, unlinked(publicOnly())) // builds: no links to missing posts
	writeTree(t, content, map[string]string{"blog/half/ok.txt": "half\n"})
	links := map[string]string{
		"blog/evil.md":               "../../outside/post.md",
		"blog/abs-evil.md":           filepath.Join(outside, "post.md"),
		"blog/linked-bundle":         "../../outside/bundle",
		"blog/half/index.md":         "../../../outside/post.md",
		"blog/pub-bundle/stolen.txt": "../../../secret-outside.txt",
		"blog/pub-bundle/passwd":     "/etc/passwd",
		"blog/pub-bundle/conf":       filepath.Join(dir, "config.toml"),
	}
	for name, target := range links {
		if err := os.Symlink(target, filepath.Join(content, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	// (blog/half/ok.txt, without the linked index.md, is a file of the
	// blog section, which Hugo publishes at /blog/half/ok.txt.)
	return dir, []string{
		"/blog/evil/", "/blog/evil.md", "/blog/abs-evil/", "/blog/abs-evil.md", "/blog/linked-bundle/",
		"/blog/linked-bundle.md", "/blog/linked-bundle/file.txt", "/blog/half/", "/blog/half.md",
		"/blog/pub-bundle/stolen.txt", "/blog/pub-bundle/passwd", "/blog/pub-bundle/conf", "/blog/late-evil/", "/blog/late-evil.md",
	}
}

// TestSymlinksOutsideContentNotFollowed runs folio serve --watch on the
// symlink site (the CLI opens the content folder with os.OpenRoot): the
// crawl and the guessed URLs show nothing from outside, the published
// posts are the fixture's three, and a link added while serving is not
// followed either. folio build exports nothing from outside.
func TestSymlinksOutsideContentNotFollowed(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary")
	}
	t.Parallel() // the folio binary works in its own process; the wait overlaps TestSlowloris's
	dir, guessed := symlinkSite(t)
	p := startServe(t, dir, "--watch")
	rm := newRemote(p.Addr())
	if err := os.Symlink("../../outside/post.md", filepath.Join(dir, "content", "blog", "late-evil.md")); err != nil {
		t.Fatal(err)
	}
	// A real edit after the link, so the watcher's batch is seen to land;
	// it is repeated until a batch shows it, so that the test does not
	// depend on how the watcher groups the events.
	landed := regexp.MustCompile(`msg=updated .*posts=4`)
	for i := 0; p.Log.Count(landed) == 0; i++ {
		if i == 30 {
			t.Fatalf("the watcher never applied the edit:\n%s", p.Log)
		}
		writeTree(t, filepath.Join(dir, "content"), map[string]string{"blog/late.md": fmt.Sprintf("---\ntitle: Late\ndate: 2020-01-01\n---\nlate %d\n", i)})
		time.Sleep(time.Second)
	}

	statuses := map[int]int{}
	c := crawlSite(t, rm, guessed...)
	for _, u := range c.order {
		for _, v := range variants {
			checkHostile(t, c.answers[u][v.name], v.method, u, statuses)
		}
	}
	for _, g := range guessed {
		if a := ask(t, rm, "GET", g, nil); a.status != 404 {
			t.Errorf("GET %s through a symlink: %d, want 404", g, a.status)
		}
	}
	if a := ask(t, rm, "GET", "/api/posts.json", nil); strings.Count(string(a.plain), `"slug"`) != 4 {
		t.Errorf("posts.json lists other posts than the 4 real ones:\n%s", clip(a.plain))
	}
	t.Logf("serve: %d URLs crawled; statuses %s", len(c.order), statusList(statuses))

	code, stderr := runFolio(t, dir, "build", "--out", "out")
	if code != 0 {
		t.Fatalf("folio build: exit %d\n%s", code, stderr)
	}
	files := readTree(t, filepath.Join(dir, "out"))
	for name, body := range files {
		if strings.Contains(strings.ToLower(name+string(body)), "topsecret") || strings.Contains(name, "evil") || strings.Contains(name, "linked-bundle") {
			t.Errorf("folio build exported %s from outside the content folder", name)
		}
	}
	t.Logf("build: %d files, none from outside", len(files))
}
