package render

import (
	"bytes"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// TestOrgCorpusHugo renders go-org's own test documents (headlines,
// lists, tables, blocks, footnotes, inline markup, keywords, LaTeX…,
// from the module cache, at the version go.mod pins as Hugo 0.165 does)
// as posts of a site that Hugo builds, and compares each page's content
// with folio's, with the oracle's allowed differences. A document that
// starts with a list gets a #+TITLE line first (Hugo's lexer takes its
// "-" for a YAML delimiter and stops the build); one that includes
// files is left out (folio does not read them: TestOrgInclude).
func TestOrgCorpusHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "github.com/niklasfasching/go-org").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	docs, _ := filepath.Glob(filepath.Join(strings.TrimSpace(string(out)), "org", "testdata", "*.org"))
	if len(docs) < 10 {
		t.Fatalf("go-org's test documents: %d found", len(docs))
	}
	site := t.TempDir()
	posts := filepath.Join(site, "content", "posts")
	write := func(name, text string) {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(filepath.Join(site, "hugo.toml"), "baseURL = \"https://example.org/\"\ntitle = \"Org corpus\"\n"+
		"disableKinds = [\"home\", \"section\", \"taxonomy\", \"term\", \"rss\", \"sitemap\", \"robotstxt\", \"404\"]\n"+
		"[markup.highlight]\nnoClasses = false\n")
	write(filepath.Join(site, "layouts", "_default", "single.html"), "{{ .Content }}")
	var names []string
	for _, doc := range docs {
		src, err := os.ReadFile(doc)
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(bytes.ToUpper(src), []byte("#+INCLUDE:")) {
			continue
		}
		name := strings.TrimSuffix(filepath.Base(doc), ".org")
		if bytes.HasPrefix(src, []byte("-")) {
			src = append([]byte("#+TITLE: "+name+"\n"), src...)
		}
		write(filepath.Join(posts, name+".org"), string(src))
		names = append(names, name)
	}
	public := t.TempDir()
	cmd := exec.Command(bin, "--quiet", "--source", site, "--destination", public, "--cacheDir", t.TempDir())
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL, cfg.Section = oracleBase, "posts"
	snap, err := pipeline.Build(os.DirFS(filepath.Join(site, "content")), cfg, pipeline.Options{}, oracleNow)
	if err != nil {
		t.Fatal(err)
	}
	byFile := map[string]*pipeline.Post{}
	for _, p := range snap.AllPosts() {
		byFile[p.File] = p
	}
	r := New(Options{BaseURL: oracleBase, Section: "posts"})
	res := NewIndex(snap.AllPosts(), snap.Visible)
	for _, name := range names {
		t.Run(name, func(t *testing.T) {
			p := byFile["posts/"+name+".org"]
			if p == nil {
				t.Fatalf("the pipeline did not read %s.org: %v", name, snap.Problems())
			}
			want, err := os.ReadFile(filepath.Join(public, "posts", strings.ToLower(name), "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page, _ := url.Parse(oracleBase + "posts/" + strings.ToLower(name) + "/")
			got := r.Render(p, res)
			if g, w := folioSide(string(got.HTML)), hugoSideAt(string(want), page); g != w {
				t.Errorf("folio's HTML differs from Hugo's\n--- folio:\n%s\n--- hugo:\n%s", g, w)
			}
		})
	}
}

// TestOrgLargeHugo: Org posts that are long but cost go-org linear time
// render as Hugo 0.165 renders them, without a warning: review 32's
// 6,000 headlines (190 KB, which the headline bound of 6118912 showed as
// written, as an error) and 2,500 footnote references each with its
// definition (which its count of "[fn:" refused, definitions counted).
func TestOrgLargeHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	var heads, notes strings.Builder
	heads.WriteString("#+TITLE: Heads\n#+DATE: 2024-01-01\n\n")
	for i := range 6000 {
		fmt.Fprintf(&heads, "* Heading %d\nSome text %d.\n\n", i, i)
	}
	notes.WriteString("#+TITLE: Notes\n#+DATE: 2024-01-01\n\n")
	for i := range 2500 {
		fmt.Fprintf(&notes, "Claim %d[fn:%d].\n\n", i, i)
	}
	for i := range 2500 {
		fmt.Fprintf(&notes, "[fn:%d] Source %d.\n", i, i)
	}
	site := t.TempDir()
	for name, text := range map[string]string{
		"hugo.toml": "baseURL = \"https://example.org/\"\ntitle = \"Org\"\n" +
			"disableKinds = [\"home\", \"section\", \"taxonomy\", \"term\", \"rss\", \"sitemap\", \"robotstxt\", \"404\"]\n",
		"layouts/_default/single.html": "{{ .Content }}",
		"content/posts/heads.org":      heads.String(),
		"content/posts/notes.org":      notes.String(),
	} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(site, name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(site, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	public := t.TempDir()
	cmd := exec.Command(bin, "--quiet", "--source", site, "--destination", public, "--cacheDir", t.TempDir())
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	if msg, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("hugo: %v\n%s", err, msg)
	}
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL, cfg.Section = oracleBase, "posts"
	snap, err := pipeline.Build(os.DirFS(filepath.Join(site, "content")), cfg, pipeline.Options{}, oracleNow)
	if err != nil {
		t.Fatal(err)
	}
	r := New(Options{BaseURL: oracleBase, Section: "posts"})
	res := NewIndex(snap.AllPosts(), snap.Visible)
	for _, name := range []string{"heads", "notes"} {
		t.Run(name, func(t *testing.T) {
			var p *pipeline.Post
			for _, q := range snap.AllPosts() {
				if q.File == "posts/"+name+".org" {
					p = q
				}
			}
			if p == nil {
				t.Fatalf("the pipeline did not read %s.org: %v", name, snap.Problems())
			}
			want, err := os.ReadFile(filepath.Join(public, "posts", name, "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			page, _ := url.Parse(oracleBase + "posts/" + name + "/")
			got := r.Render(p, res)
			if len(got.Issues) > 0 {
				t.Errorf("issues %+v", got.Issues)
			}
			if g, w := folioSide(string(got.HTML)), hugoSideAt(string(want), page); g != w {
				t.Errorf("folio's HTML differs from Hugo's\n--- folio:\n%.2000s\n--- hugo:\n%.2000s", g, w)
			}
		})
	}
}
