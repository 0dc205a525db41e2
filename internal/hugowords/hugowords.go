// Package hugowords compares folio's rendering of a real Hugo site with
// Hugo's: for every page Hugo 0.165 renders, are the words of its content
// in folio's rendering of the same file? It is how issue 14's "nothing
// silently lost" is measured on public blogs (cmd/hugowords runs it;
// bench/hugo-words.sh over the repositories in /work/.mirror).
//
// Hugo builds a copy of the site with a test layout that writes each
// page's content file and content (the site's own shortcode and partial
// templates, and its theme's when the theme is in the repository, are
// kept). A shortcode no template anywhere defines (a theme that is a git
// submodule or a Hugo module, not in the repository) would stop Hugo; the
// copy gets a stub writing the call's inner content, and the report names
// those shortcodes: their output is the missing theme's, not Hugo's.
// folio renders the original site with render.OptionsFor, as folio dev
// would.
package hugowords

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"time"
	"unicode"

	"folio/pipeline"
	"folio/render"
)

// A Report is the comparison of one site.
type Report struct {
	Site string
	// Stubbed are the shortcodes without a template anywhere, stubbed
	// for Hugo.
	Stubbed []string
	Pages   []Page
}

// A Page is one content file Hugo rendered.
type Page struct {
	File string
	// Words is the number of words in Hugo's content.
	Words int
	// Missing are the words of Hugo's content folio's lacks (as many
	// times as they are lacking).
	Missing []string
	// Stubbed: the page calls a stubbed shortcode.
	Stubbed bool
	// Problems are what folio reported while rendering it.
	Problems []string
	// SameHTML: folio's HTML is Hugo's, the differences folio documents
	// aside (sameHTML); HTMLDiff is the first line that differs.
	SameHTML bool
	HTMLDiff string
}

// Compare builds site (a Hugo site's folder) with the Hugo binary hugo
// into work (an empty folder) and compares every page with folio's.
func Compare(site, hugo, work string) (*Report, error) {
	rep := &Report{Site: site}
	copyDir := filepath.Join(work, "site")
	if err := copyTree(site, copyDir); err != nil {
		return nil, err
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: site, Environment: "production"})
	if err != nil {
		return nil, fmt.Errorf("folio reads the config: %w", err)
	}
	stubs, err := prepare(copyDir, cfg)
	if err != nil {
		return nil, err
	}
	rep.Stubbed = stubs
	out := filepath.Join(work, "public")
	configs := []string{}
	for _, f := range cfg.ConfigFiles {
		if rel, err := filepath.Rel(site, f); err == nil && !strings.HasPrefix(rel, "..") && !strings.Contains(filepath.ToSlash(rel), "/") {
			configs = append(configs, rel)
		}
	}
	configs = append(configs, overlayConfig)
	cmd := exec.Command(hugo, "--source", copyDir, "--destination", out, "--config", strings.Join(configs, ","),
		"--cacheDir", filepath.Join(work, "cache"), "--disableKinds", "rss,sitemap,robotstxt,404")
	cmd.Env = append(os.Environ(), "HUGO_ENVIRONMENT=production")
	if msg, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("hugo: %v\n%s", err, msg)
	}
	hugoPages, err := readHugo(out, cfg.BaseURL)
	if err != nil {
		return nil, err
	}
	folio, err := renderFolio(site, cfg)
	if err != nil {
		return nil, err
	}
	files := make([]string, 0, len(hugoPages))
	for f := range hugoPages {
		files = append(files, f)
	}
	sort.Strings(files)
	stubRE := stubCalls(stubs)
	for _, f := range files {
		hp := hugoPages[f]
		hw := words(hp.html)
		if len(hw) == 0 {
			continue
		}
		p := Page{File: f, Words: len(hw)}
		fr, ok := folio[f]
		// Each page's content as each renders it, for a look with -keep.
		_ = writeFile(filepath.Join(work, "compare", "hugo", filepath.FromSlash(f)+".html"), hp.html)
		_ = writeFile(filepath.Join(work, "compare", "folio", filepath.FromSlash(f)+".html"), fr.html)
		if !ok {
			p.Missing = []string{"(folio rendered no such page)"}
		} else {
			p.Missing = missing(hw, words(fr.html))
			p.SameHTML, p.HTMLDiff = sameHTML(hp.html, fr.html, hp.url)
			p.Problems = fr.problems
			if stubRE != nil {
				src, _ := os.ReadFile(filepath.Join(cfg.ContentDir, filepath.FromSlash(f)))
				p.Stubbed = stubRE.Match(src)
			}
		}
		rep.Pages = append(rep.Pages, p)
	}
	return rep, nil
}

// prepare makes the copy buildable with the test layout: the site's
// layouts other than shortcodes, partials and render hooks go, the test layout comes,
// a missing theme becomes an empty folder, and every shortcode without a
// template gets a stub. It returns the stubbed names.
func prepare(dir string, cfg *pipeline.Config) ([]string, error) {
	layouts := filepath.Join(dir, "layouts")
	_ = filepath.WalkDir(layouts, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(layouts, p)
		parts := strings.Split(filepath.ToSlash(rel), "/")
		top := parts[0]
		if top != "shortcodes" && top != "_shortcodes" && top != "partials" && top != "_partials" && !slices.Contains(parts, "_markup") {
			return os.Remove(p)
		}
		return nil
	})
	const test = `<main data-folio-file="{{ with .File }}{{ .Path }}{{ end }}">{{ .Content }}</main>`
	for _, name := range []string{"_default/single.html", "_default/list.html", "index.html"} {
		if err := writeFile(filepath.Join(layouts, filepath.FromSlash(name)), test); err != nil {
			return nil, err
		}
	}
	// Hugo modules would be fetched from the network: the build is
	// offline, so their imports go (a theme in the repository stays).
	// Code is highlighted with classes, as folio highlights it (the CSP
	// forbids the inline styles of Hugo's default).
	if err := writeFile(filepath.Join(dir, overlayConfig), "refLinksErrorLevel = \"warning\"\nenableGitInfo = false\n[module]\n  imports = []\n[markup.highlight]\n  noClasses = false\n"); err != nil {
		return nil, err
	}
	for _, th := range cfg.Themes {
		if err := os.MkdirAll(filepath.Join(dir, filepath.FromSlash(th)), 0o755); err != nil {
			return nil, err
		}
	}
	have := map[string]bool{}
	for _, root := range append([]string{"."}, cfg.Themes...) {
		for _, sub := range []string{"layouts/shortcodes", "layouts/_shortcodes"} {
			base := filepath.Join(dir, filepath.FromSlash(root), filepath.FromSlash(sub))
			_ = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					rel, _ := filepath.Rel(base, p)
					name := filepath.ToSlash(rel)
					have[strings.SplitN(name, ".", 2)[0]] = true
				}
				return nil
			})
		}
	}
	used, closed := map[string]bool{}, map[string]bool{}
	_ = filepath.WalkDir(filepath.Join(dir, "content"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".md") {
			src, _ := os.ReadFile(p)
			for _, m := range callName.FindAllSubmatch(src, -1) {
				used[string(m[1])] = true
			}
			for _, m := range closeName.FindAllSubmatch(src, -1) {
				closed[string(m[1])] = true
			}
		}
		return nil
	})
	var stubs []string
	for name := range used {
		if have[name] || builtin[name] {
			continue
		}
		stubs = append(stubs, name)
		// A stub that reads .Inner needs every call closed, as Hugo
		// decides from the template: only a shortcode closed somewhere
		// gets one.
		stub := ""
		if closed[name] {
			stub = "{{ .Inner }}"
		}
		if err := writeFile(filepath.Join(layouts, "_shortcodes", filepath.FromSlash(name)+".html"), stub); err != nil {
			return nil, err
		}
	}
	slices.Sort(stubs)
	return stubs, nil
}

// overlayConfig is the configuration layered over the site's for the
// build.
const overlayConfig = "zz-folio-hugowords.toml"

var closeName = regexp.MustCompile(`\{\{[<%]\s*/\s*([A-Za-z0-9_][A-Za-z0-9_/-]*)`)

var callName = regexp.MustCompile(`\{\{[<%]\s*([A-Za-z0-9_][A-Za-z0-9_/-]*)`)

// builtin are Hugo 0.165's embedded shortcodes that build.
var builtin = map[string]bool{"details": true, "figure": true, "highlight": true, "instagram": true, "param": true,
	"qr": true, "ref": true, "relref": true, "vimeo": true, "x": true, "youtube": true, "comment": true}

// stubCalls matches a call of a stubbed shortcode.
func stubCalls(stubs []string) *regexp.Regexp {
	if len(stubs) == 0 {
		return nil
	}
	q := make([]string, len(stubs))
	for i, s := range stubs {
		q[i] = regexp.QuoteMeta(s)
	}
	return regexp.MustCompile(`\{\{[<%]\s*(?:` + strings.Join(q, "|") + `)\b`)
}

var mainRE = regexp.MustCompile(`(?s)<main data-folio-file="([^"]*)">(.*?)</main>`)

// hugoPage is a page's content as Hugo wrote it, and the page's URL.
type hugoPage struct{ html, url string }

// readHugo reads each page's content from Hugo's output, by content file.
func readHugo(out, baseURL string) (map[string]hugoPage, error) {
	pages := map[string]hugoPage{}
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(out, filepath.Dir(p))
		u := strings.TrimSuffix(baseURL, "/") + "/"
		if rel = filepath.ToSlash(rel); rel != "." {
			u += rel + "/"
		}
		for _, m := range mainRE.FindAllSubmatch(data, -1) {
			if f := html.UnescapeString(string(m[1])); f != "" {
				pages[f] = hugoPage{html: string(m[2]), url: u}
			}
		}
		return nil
	})
	return pages, err
}

type folioPage struct {
	html     string
	problems []string
}

// renderFolio renders every content file of the site with folio, as
// folio dev reads it: the site model over the site's folder, refs
// resolved over every page (render.NewSiteIndex).
func renderFolio(site string, cfg *pipeline.Config) (map[string]folioPage, error) {
	snap, err := pipeline.Build(os.DirFS(site), cfg, pipeline.Options{}, time.Now())
	if err != nil {
		return nil, err
	}
	o := render.OptionsFor(cfg, os.DirFS(site))
	o.Content = snap.FS()
	r, six := render.New(o), render.NewSiteIndex(snap)
	contentDir, _ := filepath.Rel(site, cfg.ContentDir)
	prefix := filepath.ToSlash(contentDir) + "/"
	out := map[string]folioPage{}
	for _, p := range snap.AllPosts() {
		res := r.Render(p, six)
		fp := folioPage{html: string(res.HTML)}
		for _, is := range res.Issues {
			fp.problems = append(fp.problems, fmt.Sprintf("%d: %s%s", is.Line, severity(is.Severity), is.Message))
		}
		out[strings.TrimPrefix(p.File, prefix)] = fp
	}
	return out, nil
}

func severity(s pipeline.Severity) string {
	if s == pipeline.Warning {
		return "warning: "
	}
	return ""
}

var (
	tag    = regexp.MustCompile(`(?s)<!--.*?-->|<[^>]*>`)
	script = regexp.MustCompile(`(?is)<(script|style)\b.*?</(script|style)>`)
)

// words are the words of HTML's text, lower-cased: runs of letters and
// digits. Scripts and style sheets are not text.
func words(h string) []string {
	text := html.UnescapeString(tag.ReplaceAllString(script.ReplaceAllString(h, " "), " "))
	return strings.FieldsFunc(strings.ToLower(text), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	})
}

// missing is hugo's words less folio's, as a multiset.
func missing(hugo, folio []string) []string {
	have := map[string]int{}
	for _, w := range folio {
		have[w]++
	}
	var out []string
	for _, w := range hugo {
		if have[w] > 0 {
			have[w]--
			continue
		}
		out = append(out, w)
	}
	return out
}

func writeFile(p, text string) error {
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, []byte(text), 0o644)
}

// copyTree copies a site, leaving out what Hugo writes and version
// control.
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		top := strings.Split(filepath.ToSlash(rel), "/")[0]
		if top == ".git" || top == "public" || top == "resources" || top == "node_modules" {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, data, 0o644)
	})
}

// Summary is the report in a few lines: pages compared, pages with every
// word, and the pages that lack some.
func (r *Report) Summary(verbose bool) string {
	var b bytes.Buffer
	full, words, lacking := 0, 0, 0
	for _, p := range r.Pages {
		words += p.Words
		lacking += len(p.Missing)
		if len(p.Missing) == 0 {
			full++
		}
	}
	same := 0
	for _, p := range r.Pages {
		if p.SameHTML {
			same++
		}
	}
	fmt.Fprintf(&b, "%s: %d pages, %d with every word of Hugo's content (%d of %d words missing), %d with Hugo's HTML", path.Base(r.Site), len(r.Pages), full, lacking, words, same)
	if len(r.Stubbed) > 0 {
		fmt.Fprintf(&b, "; shortcodes of a missing theme: %s", strings.Join(r.Stubbed, ", "))
	}
	b.WriteString("\n")
	for _, p := range r.Pages {
		if len(p.Missing) == 0 && !verbose {
			continue
		}
		note := ""
		if p.Stubbed {
			note = " (calls a missing theme's shortcode)"
		}
		sample := p.Missing
		if len(sample) > 12 {
			sample = sample[:12]
		}
		fmt.Fprintf(&b, "  %s: %d of %d words missing%s: %s\n", p.File, len(p.Missing), p.Words, note, strings.Join(sample, " "))
		if verbose && !p.SameHTML {
			fmt.Fprintf(&b, "    HTML: %s\n", p.HTMLDiff)
		}
		if verbose {
			for _, pr := range p.Problems {
				fmt.Fprintf(&b, "    %s\n", pr)
			}
		}
	}
	return b.String()
}
