package main

import (
	"bytes"
	"cmp"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"folio/host"
	"folio/internal/hugotest"
)

// aliasTemplate is a site's alias template that reads what Hugo gives
// one: .Permalink, the page's title, kind and params, the site's
// language and title.
const aliasTemplate = `<!doctype html><html lang="{{ site.Language.LanguageCode }}" data-alias>` +
	`<head><title>{{ .Title }} | {{ site.Title }}</title><link rel="canonical" href="{{ .Permalink }}">` +
	`<meta http-equiv="refresh" content="0; url={{ .Permalink }}"></head>` +
	`<body><p>The {{ .Kind }} “{{ .Title }}” moved to <a href="{{ .Permalink }}">{{ .Permalink }}</a>` +
	`{{ with .Params.moved }} ({{ . }}){{ end }}.</p></body></html>
`

// pageTemplate is an alias template that reads the page as Hugo 0.165
// gives it: .Page, and the methods made of its rendered content.
const pageTemplate = `<!doctype html><html data-alias><title>{{ .Page.Title }}</title>` +
	`<link rel="canonical" href="{{ .Permalink }}">{{ .Page.Permalink }}|{{ .RelPermalink }}
C={{ .Content }}
S={{ .Summary }}|{{ .Page.Summary }}
P={{ .Plain }}|T={{ .Truncated }}
TOC={{ .TableOfContents }}
WC={{ .WordCount }}|{{ .ReadingTime }}|{{ .FuzzyWordCount }}|{{ len .PlainWords }}|{{ .Len }}
OF={{ range .OutputFormats }}{{ .Rel }},{{ .Name }},{{ .Permalink }},{{ .RelPermalink }},{{ .MediaType.Type }};{{ end }}
`

// TestAliasTemplateIsHugos: a site's alias template (layouts/alias.html,
// _default/alias.html, or its theme's) makes the export's alias pages as
// it makes Hugo 0.165's: at every path Hugo writes one (front matter
// aliases of pages, bundles and a second language, the lists' /page/1/),
// folio's file has Hugo's bytes. Serve still answers those paths with
// its 301 (the contract's rule for aliases), and the build says nothing
// of the template. Hugo builds the fixture in each case, so this runs
// where Hugo is installed, and always in CI.
func TestAliasTemplateIsHugos(t *testing.T) {
	bin := hugotest.Binary(t)
	const config = "baseURL = 'https://example.org/blog/'\ntitle = 'Aliases'\ndefaultContentLanguage = 'en'\n" +
		"[markup.goldmark.renderer]\nunsafe = true\n[markup.goldmark.parser.attribute]\ntitle = true\n" +
		"[languages.en]\nweight = 1\nlanguageCode = 'en-GB'\n[languages.fr]\nweight = 2\n[pagination]\npagerSize = 1\n"
	cases := []struct{ name, template, theme, text string }{
		{name: "site", template: "layouts/alias.html"},
		{name: "page methods", template: "layouts/alias.html", text: pageTemplate},
		{name: "site _default", template: "layouts/_default/alias.html"},
		{name: "theme", template: "themes/plain/layouts/_default/alias.html", theme: "theme = 'plain'\n"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "aliases"))); err != nil {
				t.Fatal(err)
			}
			write(t, dir, "hugo.toml", c.theme+config)
			write(t, dir, c.template, cmp.Or(c.text, aliasTemplate))
			if c.text != "" { // pages whose content, summary and headings the template reads
				write(t, dir, "content/posts/toc.md", "---\ntitle: Toc\ndate: 2025-01-03\naliases: [/old/toc/]\n---\n"+
					"### Early\n\nOne two three four five six seven eight nine ten.\n\n## Head *one*\n\nMore **text** & <b>x</b>.\n\n"+
					"#### Deep\n\n### Sub\n\n# Top\n\n### Below top\n\n## Two\n\nEnd.\n\n"+
					// What Hugo's tree has: a link's text, not the link; no
					// heading raw HTML or a shortcode writes; headings in a
					// quote and a list; an id given; a repeated one.
					"## First *emph* [link](https://x.org) `code`\n\n<h2 id=\"raw\">Raw heading</h2>\n\n{{< h >}}\n\n{{% h %}}\n\n"+
					"> ## In quote\n\n- item\n\n  ### In list\n\n## Attr {#custom .cls}\n\n## Dup\n## Dup\n")
				write(t, dir, "layouts/_shortcodes/h.html", "<h3 id=\"sc\">From a shortcode</h3>\n")
				write(t, dir, "content/posts/more.md", "---\ntitle: More\ndate: 2025-01-04\naliases: [/old/more/]\n---\nshort\n\n<!--more-->\n\nrest\n")
				write(t, dir, "content/posts/fmsum.md", "---\ntitle: Sum\ndate: 2025-01-05\naliases: [/old/sum/]\nsummary: '**FM** sum & x'\n---\nbody\n")
			}
			// Lists that paginate, so that Hugo writes their /page/1/.
			write(t, dir, "layouts/_default/list.html", "{{ range .Paginator.Pages }}{{ .Title }}{{ end }}")
			write(t, dir, "layouts/_default/single.html", "{{ .Content }}")
			write(t, dir, "content/posts/moved.md", "---\ntitle: Moved\ndate: 2025-01-02\naliases: [/old/moved/, moved.html]\nmoved: in 2025\n---\nHi.\n")
			hugoOut := filepath.Join(t.TempDir(), "public")
			cmd := exec.Command(bin, "--quiet", "--source", dir, "--destination", hugoOut, "--cacheDir", t.TempDir())
			cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, msg)
			}
			out := filepath.Join(t.TempDir(), "public")
			if said := build(t, dir, out); strings.Contains(said, "warning") {
				t.Errorf("folio build said of the aliases:\n%s", said)
			}
			hugo := templatedPages(t, hugoOut)
			if c.text != "" && !strings.Contains(hugo["old/toc/index.html"], `<a href="#sub">Sub</a>`) {
				t.Fatalf("Hugo's page at /old/toc/ lacks the table of contents: the case tests too little:\n%s", hugo["old/toc/index.html"])
			}
			if len(hugo) < 10 {
				t.Fatalf("Hugo wrote %d pages from the alias template, want at least 10: the case tests too little", len(hugo))
			}
			t.Logf("%d pages from the alias template", len(hugo))
			folio := templatedPages(t, out)
			for p, want := range hugo {
				if got, ok := folio[p]; !ok {
					t.Errorf("%s: Hugo writes the alias template's page, folio does not:\n%s", p, want)
				} else if got != want {
					t.Errorf("%s: folio's page differs from Hugo's\n--- folio:\n%s\n--- hugo:\n%s", p, got, want)
				}
			}
			for p := range folio {
				if _, ok := hugo[p]; !ok {
					t.Errorf("%s: folio writes the alias template's page, Hugo does not", p)
				}
			}
			h, err := host.Load(host.Spec{Source: dir})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			for _, p := range []string{"/old/moved/", "/posts/page/1/"} {
				rec := httptest.NewRecorder()
				h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://example.org"+p, nil))
				if rec.Code != http.StatusMovedPermanently || rec.Header().Get("Location") == "" {
					t.Errorf("serve: %s answers %d (Location %q), want its 301", p, rec.Code, rec.Header().Get("Location"))
				}
			}
		})
	}
}

// templatedPages are the files of out that aliasTemplate wrote, by path.
func templatedPages(t *testing.T, out string) map[string]string {
	t.Helper()
	pages := map[string]string{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		data, err := os.ReadFile(p)
		if err == nil && bytes.Contains(data, []byte(" data-alias>")) {
			rel, _ := filepath.Rel(out, p)
			pages[filepath.ToSlash(rel)] = string(data)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}
