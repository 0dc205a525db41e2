package render

import (
	"cmp"
	"io/fs"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// Hugo is the oracle of these tests. Each suite is a Hugo site under
// testdata/oracle/<suite>/site whose single-page layout writes nothing
// but {{ .Content }}; Hugo 0.165's output for each page is committed under
// testdata/oracle/<suite>/hugo/<file>.html. TestOracleHugo builds the
// site with Hugo and checks the committed files are what Hugo writes
// (-update rewrites them); it runs where Hugo is installed, and always in
// CI. TestOracle renders each page with folio and compares it with the
// committed file, byte for byte, so it runs everywhere. The Markdown
// twins have goldens of their own under testdata/oracle/<suite>/md.
//
// The differences allowed, each made away before the comparison:
//   - folio writes every URL absolute (the contract's rule for every body
//     it serves), so Hugo's relative href and src values are resolved
//     against the page's URL, as a browser resolves them (relref, which
//     Hugo writes root-relative, is used in the fixtures as a link's
//     destination only);
//   - a table's cells are aligned with align="right", not Hugo's
//     style="text-align: right" (the CSP forbids inline styles), and
//     the white space between a table's tags, which Hugo's table
//     template indents, is not compared;
//   - a task list's checkbox has an aria-label ("done", "to do");
//   - a goat diagram's letters have no style='font-size:1em' (the CSP
//     forbids style attributes; the size is the inherited one anyway).

// An oracleSuite is a fixture site and the Options that say to folio
// what the site's configuration says to Hugo: opts, or, when nil, the
// site's own configuration as folio reads it (OptionsFor).
type oracleSuite struct {
	name string
	opts func() Options
	// description: the fixture's layout writes the page's description
	// (or its summary, plainified) instead of its content, and folio's
	// Description is compared with it, as one line of plain text.
	description bool
	// ext is the extension of the suite's content files, "md" when "".
	ext string
}

func (s oracleSuite) extension() string { return "." + cmp.Or(s.ext, "md") }

var oracleSuites = []oracleSuite{
	{name: "markup", opts: func() Options {
		m := DefaultMarkup()
		m.HardWraps = true
		m.Emoji = true
		m.AutoIDType = "github-ascii"
		m.AttributeBlock = true
		m.Typographer.LeftDoubleQuote = "&laquo;"
		m.Typographer.RightDoubleQuote = "&raquo;"
		m.Highlight.GuessSyntax = true
		return Options{BaseURL: oracleBase, Section: "posts", Markup: &m}
	}},
	{name: "templates", opts: func() Options {
		site := filepath.Join("testdata", "oracle", "templates", "site")
		return Options{BaseURL: oracleBase, Section: "posts",
			Templates: LoadTemplates(os.DirFS(site), []string{"themes/plain"}, "en"),
			Content:   os.DirFS(filepath.Join(site, "content")),
			Site: &Site{Title: "Oracle: site templates", LanguageCode: "en-us", Language: "en", Params: map[string]any{
				"author": "Ada", "repobase": "https://github.com/", "colors": []any{"red", "green", "blue"},
			}}}
	}},
	{name: "hooks", opts: func() Options {
		site := filepath.Join("testdata", "oracle", "hooks", "site")
		m := DefaultMarkup()
		m.AttributeBlock = true
		return Options{BaseURL: oracleBase, Section: "posts", Markup: &m,
			Templates: LoadTemplates(os.DirFS(site), []string{"themes/hooktheme"}, "en"),
			Content:   os.DirFS(filepath.Join(site, "content")),
			Site:      &Site{Title: "Oracle: render hooks", LanguageCode: "en-us", Language: "en"}}
	}},
	// Goldmark's extensions Hugo configures (extras, CJK, passthrough
	// with its delimiters) and a table hook, from the site's hugo.toml.
	{name: "extensions"},
	// Passthrough hooks, inline and block, and raw HTML allowed.
	{name: "passthrough"},
	// Shortcodes from theme and module.imports in Hugo's precedence, a
	// disabled import, a vendored module read from _vendor/.
	{name: "imports"},
	{name: "summaries", description: true, opts: func() Options {
		return Options{BaseURL: oracleBase, Section: "posts", SummaryLength: 40}
	}},
	// Org-mode content, rendered by go-org as in Hugo, front matter as
	// Org keywords and as YAML.
	{name: "org", ext: "org", opts: func() Options {
		return Options{BaseURL: oracleBase, Section: "posts", Site: &Site{Title: "Oracle: Org mode"}}
	}},
	{name: "orgsummaries", ext: "org", description: true, opts: func() Options {
		return Options{BaseURL: oracleBase, Section: "posts", SummaryLength: 40}
	}},
	// Inline shortcodes, run as the site's enableInlineShortcodes says,
	// then the same pages where it is false (the default): they show
	// nothing; then where security.enableInlineShortcodes turns them on.
	{name: "inline"},
	{name: "inlineoff"},
	{name: "inlinesec"},
	{name: "shortcodes", opts: func() Options {
		return Options{BaseURL: oracleBase, Section: "posts", Site: &Site{
			Title:  "Oracle: built-in shortcodes",
			Params: map[string]any{"greeting": "Hello from the site", "nested": map[string]any{"deep": "site deep"}},
		}}
	}},
}

const oracleBase = "https://example.org/"

var oracleNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// TestOracleHugo checks the committed Hugo output against Hugo itself.
func TestOracleHugo(t *testing.T) {
	bin := hugotest.Binary(t)
	for _, s := range oracleSuites {
		t.Run(s.name, func(t *testing.T) {
			out := t.TempDir()
			cmd := exec.Command(bin, "--quiet", "--source", s.site(), "--destination", out, "--cacheDir", t.TempDir())
			cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
			if msg, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("hugo: %v\n%s", err, msg)
			}
			for _, file := range s.pages(t) {
				got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(hugoPagePath(file))))
				if err != nil {
					t.Errorf("%s: %v", file, err)
					continue
				}
				oracleGolden(t, filepath.Join(s.dir(), "hugo", file+".html"), string(got))
			}
		})
	}
}

// TestOracle renders every page of every suite with folio and compares
// it with Hugo's committed output.
func TestOracle(t *testing.T) {
	for _, s := range oracleSuites {
		t.Run(s.name, func(t *testing.T) {
			posts, res := s.parse(t)
			r := New(s.options(t))
			for _, file := range s.pages(t) {
				t.Run(file, func(t *testing.T) {
					p := posts["posts/"+file+s.extension()]
					if p == nil {
						t.Fatalf("the pipeline did not read %s", file)
					}
					want, err := os.ReadFile(filepath.Join(s.dir(), "hugo", file+".html"))
					if err != nil {
						t.Fatalf("%v (run TestOracleHugo with -update where Hugo is installed)", err)
					}
					if s.description {
						if got, w := r.Description(p), oneLine(string(want)); got != w {
							t.Errorf("description\n--- folio: %q\n--- hugo:  %q", got, w)
						}
						return
					}
					got := r.Render(p, res)
					checkInvariants(t, p, got)
					if g, w := folioSide(string(got.HTML)), hugoSide(string(want), file); g != w {
						t.Errorf("folio's HTML differs from Hugo's\n--- folio:\n%s\n--- hugo:\n%s", g, w)
					}
					oracleGolden(t, filepath.Join(s.dir(), "md", file+".md"), got.Markdown)
					oracleGolden(t, filepath.Join(s.dir(), "issues", file+".txt"), issueText(got.Issues))
				})
			}
		})
	}
}

// options are the Options folio renders the suite's pages with.
func (s oracleSuite) options(t *testing.T) Options {
	t.Helper()
	if s.opts != nil {
		return s.opts()
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: s.site(), Environment: "production"})
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range cfg.Warnings { // every key of the fixtures is Hugo's
		t.Errorf("config: %s", w)
	}
	o := OptionsFor(cfg, os.DirFS(s.site()))
	o.Section = "posts"
	o.Content = os.DirFS(filepath.Join(s.site(), "content"))
	return o
}

func (s oracleSuite) dir() string  { return filepath.Join("testdata", "oracle", s.name) }
func (s oracleSuite) site() string { return filepath.Join(s.dir(), "site") }

// pages lists the suite's posts, relative to content/posts, without their
// extension (".md", or the suite's).
func (s oracleSuite) pages(t *testing.T) []string {
	t.Helper()
	var out []string
	root := filepath.Join(s.site(), "content", "posts")
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, s.extension()) || strings.HasPrefix(d.Name(), "_index.") {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if dir := filepath.Dir(rel); dir != "." && d.Name() != "index"+s.extension() {
			return nil // a bundle's other Markdown files are resources
		}
		out = append(out, strings.TrimSuffix(filepath.ToSlash(rel), s.extension()))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// parse reads the suite's content with the real pipeline.
func (s oracleSuite) parse(t *testing.T) (map[string]*pipeline.Post, Resolver) {
	t.Helper()
	cfg := pipeline.DefaultConfig()
	cfg.BaseURL, cfg.Section = oracleBase, "posts"
	snap, err := pipeline.Build(os.DirFS(filepath.Join(s.site(), "content")), cfg, pipeline.Options{}, oracleNow)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pipeline.Errors(snap.Problems()) {
		t.Errorf("fixture: %s", p)
	}
	byFile := map[string]*pipeline.Post{}
	for _, p := range snap.AllPosts() {
		byFile[p.File] = p
	}
	return byFile, NewIndex(snap.AllPosts(), snap.Visible)
}

// hugoPagePath is where Hugo writes the page of posts/<file>.md.
func hugoPagePath(file string) string {
	file = strings.TrimSuffix(file, "/index")
	return path.Join("posts", strings.ToLower(file), "index.html")
}

var (
	urlAttr     = regexp.MustCompile(`(\s(?:href|src))="([^"]*)"`)
	tableBlock  = regexp.MustCompile(`(?s)<table.*?</table>`)
	betweenTags = regexp.MustCompile(`>\s+<`)
	styleAlign  = regexp.MustCompile(` style="text-align: (\w+)"`)
	taskLabel   = regexp.MustCompile(` aria-label="(?:done|to do)"`)
	goatStyle   = regexp.MustCompile(`(<text [^>]*) style='font-size:1em'`)
)

// hugoSide is Hugo's HTML of posts/<file>.md with the allowed differences
// made away: relative URLs resolved against the page's, tables aligned by
// attribute and without the white space between their tags.
func hugoSide(html, file string) string {
	page, _ := url.Parse(oracleBase + strings.TrimSuffix(hugoPagePath(file), "index.html"))
	return hugoSideAt(html, page)
}

// hugoSideAt is Hugo's HTML of the page at the URL page with the allowed
// differences made away.
func hugoSideAt(html string, page *url.URL) string {
	html = urlAttr.ReplaceAllStringFunc(html, func(m string) string {
		sub := urlAttr.FindStringSubmatch(m)
		v := sub[2]
		if v == "" || strings.HasPrefix(v, "#") || strings.Contains(v, "://") || strings.HasPrefix(v, "mailto:") {
			return m
		}
		u, err := url.Parse(v)
		if err != nil {
			return m
		}
		return sub[1] + `="` + page.ResolveReference(u).String() + `"`
	})
	html = goatStyle.ReplaceAllString(html, "$1")
	return tableBlock.ReplaceAllStringFunc(html, func(t string) string {
		return betweenTags.ReplaceAllString(styleAlign.ReplaceAllString(t, ` align="$1"`), "><")
	})
}

// folioSide is folio's HTML with the allowed differences made away.
func folioSide(html string) string {
	html = taskLabel.ReplaceAllString(html, "")
	return tableBlock.ReplaceAllStringFunc(html, func(t string) string { return betweenTags.ReplaceAllString(t, "><") })
}

// oracleGolden compares got with the file at path (-update rewrites it).
func oracleGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./render -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./render -update rewrites it)\n--- got:\n%s\n--- want:\n%s", path, got, want)
	}
}
