package hugotest

import (
	"bytes"
	"fmt"
	"html"
	"io/fs"
	"maps"
	"net/url"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// An Output is one URL of a site Hugo built with the oracle theme.
type Output struct {
	Path  string // the URL path, unescaped: "/posts/hello/", "/img/a.png"
	Class string // "page", "alias", "feed", "sitemap", "file"
	// Title, Kind and Lang are a page's, as the oracle theme writes them.
	Title, Kind, Lang string
	// Alt are other titles a page may have as well: Hugo titles a term
	// after any of its spellings, depending on a map's order.
	Alt []string
	// Target is an alias's target path.
	Target string
}

// ThemesDir is the folder holding the oracle theme ("theme"): a layout
// for every page kind writing each page's title, kind and language.
func ThemesDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// BuildSite builds the site in dir with Hugo 0.165 and the oracle theme,
// in a copy whose own layouts are gone but for its shortcodes and the
// partials they call, and returns every URL Hugo wrote.
func BuildSite(t testing.TB, dir string) map[string]Output {
	t.Helper()
	urls, err := BuildWith(Binary(t), dir, t.TempDir(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return urls
}

// BuildWith builds a copy of the site in dir (made in work) with the Hugo
// at bin and the oracle theme into out, for the production environment,
// and reads what it wrote. The site's own layouts are left out but for
// its shortcodes and partials (which its shortcodes call; the oracle
// theme calls none); a shortcode the site uses but has no template for
// (its theme's) gets one that keeps its inner text, as folio does.
func BuildWith(bin, dir, work, out string) (map[string]Output, error) {
	return BuildEnv(bin, dir, work, out, "production")
}

// BuildEnv is BuildWith for the config environment env ("development"
// is what folio dev reads, as hugo server does).
func BuildEnv(bin, dir, work, out, env string) (map[string]Output, error) {
	site := filepath.Join(work, "site")
	if err := os.CopyFS(site, os.DirFS(dir)); err != nil {
		return nil, fmt.Errorf("copy %s: %w", dir, err)
	}
	if err := keepShortcodesOnly(site, filepath.Join(work, "kept-layouts")); err != nil {
		return nil, err
	}
	var replaced []string // module path -> an empty folder
	var closed map[string]bool
	for range 50 {
		cmd := exec.Command(bin, "--themesDir", ThemesDir(), "--theme", "theme", "--destination", out,
			"--environment", env, "--noBuildLock")
		cmd.Dir = site
		// The oracle reads the theme's tags as written: a site's
		// minifyOutput would take their quotes off.
		cmd.Env = append(os.Environ(), "HUGO_CACHEDIR="+filepath.Join(work, "cache"), "HUGO_MINIFY_MINIFYOUTPUT=false")
		if len(replaced) > 0 {
			cmd.Env = append(cmd.Env, "HUGO_MODULE_REPLACEMENTS="+strings.Join(replaced, ","))
		}
		msg, err := cmd.CombinedOutput()
		if err == nil {
			urls, err := ReadOutput(out)
			if err == nil {
				markAssets(urls, site)
			}
			return urls, err
		}
		// A theme that is a Hugo module is not downloaded (the oracle
		// theme stands for it, and nothing is fetched): an empty folder
		// replaces it, as folio does without it.
		if m := missingModule.FindSubmatch(msg); m != nil {
			mod := string(m[1])
			if slices.ContainsFunc(replaced, func(r string) bool { return strings.HasPrefix(r, mod+" ->") }) {
				return nil, fmt.Errorf("hugo in %s: %v\n%s", dir, err, msg)
			}
			empty := filepath.Join(work, "modules", fmt.Sprint(len(replaced)))
			if err := os.MkdirAll(empty, 0o755); err != nil {
				return nil, err
			}
			replaced = append(replaced, mod+" -> "+empty)
			continue
		}
		// A stub keeps the inner text; one the content never closes
		// cannot name .Inner (Hugo then wants every call closed, and
		// may name the call around an unclosed one).
		name, text := "", ""
		const noInner = "{{/* folio's oracle: a stub of a missing theme shortcode */}}"
		m := missingShortcode.FindSubmatch(msg)
		if m == nil {
			m = removedShortcode.FindSubmatch(msg)
		}
		if m != nil {
			name, text = string(m[1]), "{{ .Inner }}"
			if closed == nil {
				closed = closedShortcodes(site)
			}
			if !closed[name] {
				text = noInner
			}
		} else if m = unclosedShortcode.FindSubmatch(msg); m != nil {
			name, text = string(m[1]), noInner
		} else {
			return nil, fmt.Errorf("hugo in %s: %v\n%s", dir, err, msg)
		}
		stub := filepath.Join(site, "layouts", "_shortcodes", name+".html")
		if err := os.MkdirAll(filepath.Dir(stub), 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(stub, []byte(text), 0o644); err != nil {
			return nil, err
		}
	}
	return nil, fmt.Errorf("hugo in %s: too many missing shortcodes and modules", dir)
}

var (
	missingShortcode = regexp.MustCompile(`template for shortcode "([^"]+)" not found`)
	// An embedded shortcode Hugo removed (gist in 0.156) fails the
	// build; the site's own template of that name is used, and a stub
	// stands for one it lacks, as for a theme's.
	removedShortcode  = regexp.MustCompile(`The "([^"]+)" shortcode was deprecated in \S+ and removed`)
	unclosedShortcode = regexp.MustCompile(`shortcode "([^"]+)" must be closed or self-closed`)
	missingModule     = regexp.MustCompile(`(?m)failed to load modules: .*?go: ([^@\s]+)@`)
)

// closingTag is a shortcode's closing tag: {{< /name >}}, {{% /name %}}.
var closingTag = regexp.MustCompile(`\{\{[<%]\s*/\s*([^\s>%]+)\s*[>%]\}\}`)

// closedShortcodes are the shortcodes some content file of the site
// closes (its content formats, anywhere in the site's folder).
func closedShortcodes(site string) map[string]bool {
	out := map[string]bool{}
	_ = filepath.WalkDir(site, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return nil
		}
		switch strings.ToLower(filepath.Ext(p)) {
		case ".md", ".markdown", ".mdown", ".html", ".htm", ".org", ".adoc", ".asciidoc", ".pdc", ".pandoc", ".rst", ".mmark":
		default:
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return nil
		}
		for _, m := range closingTag.FindAllSubmatch(data, -1) {
			out[string(m[1])] = true
		}
		return nil
	})
	return out
}

// keepShortcodesOnly removes a site's layouts but its shortcode
// templates and the partials they may call, so that the oracle theme
// renders every page (dougdomingos/v2's shortcodes call its partials).
// keep is a scratch folder.
func keepShortcodesOnly(site, keep string) error {
	layouts := filepath.Join(site, "layouts")
	for _, sub := range []string{"shortcodes", "_shortcodes", "partials", "_partials"} {
		if _, err := os.Stat(filepath.Join(layouts, sub)); err == nil {
			if err := os.CopyFS(filepath.Join(keep, sub), os.DirFS(filepath.Join(layouts, sub))); err != nil {
				return err
			}
		}
	}
	if err := os.RemoveAll(layouts); err != nil {
		return err
	}
	if _, err := os.Stat(keep); err != nil {
		return nil
	}
	return os.CopyFS(layouts, os.DirFS(keep))
}

// markAssets marks as "asset" the files Hugo published from the site's
// assets folder (and not from static/): content's images, which folio
// publishes too, or what a template published through Hugo Pipes
// (resources.Get …).Permalink, which it does not. Compare and Answers
// count one folio answers as a file, any other as "pipes". A file of
// the static folder named like an output format's (static/app/index.js)
// is a file, not a format's output.
func markAssets(urls map[string]Output, site string) {
	for p, o := range urls {
		if o.Class != "file" && o.Class != "format" {
			continue
		}
		rel := filepath.FromSlash(strings.TrimPrefix(p, "/"))
		if _, err := os.Stat(filepath.Join(site, "static", rel)); err == nil {
			if o.Class == "format" {
				o.Class = "file"
				urls[p] = o
			}
			continue
		}
		if o.Class != "file" {
			continue
		}
		if _, err := os.Stat(filepath.Join(site, "assets", rel)); err == nil {
			o.Class = "asset"
			urls[p] = o
		}
	}
}

// processedImage matches the names Hugo gives processed images
// (photo_hu_0123abcd.jpg, photo_hu0123abcd_120x0_resize.jpg).
var processedImage = regexp.MustCompile(`_hu_?[0-9a-f]{8,}`)

var (
	metaRe    = regexp.MustCompile(`<meta name="folio-(kind|lang)" content="([^"]*)">`)
	titleRe   = regexp.MustCompile(`(?s)<title>(.*?)</title>`)
	refreshRe = regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)"`)
)

// ReadOutput classifies every file of a Hugo build in out.
func ReadOutput(out string) (map[string]Output, error) {
	urls := map[string]Output{}
	err := fs.WalkDir(os.DirFS(out), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		o := Output{Path: RouteOf(p), Class: "file"}
		switch {
		case path.Base(p) == "sitemap.xml":
			o.Class = "sitemap"
		case p == "robots.txt":
			o.Class = "robots"
		case processedImage.MatchString(path.Base(p)):
			o.Class = "processed"
		case strings.HasPrefix(path.Base(p), "index.") && !strings.HasSuffix(p, ".html") && !strings.HasSuffix(p, ".xml"):
			o.Class = "format"
		case strings.HasSuffix(p, ".xml"):
			data, err := os.ReadFile(filepath.Join(out, p))
			if err != nil {
				return err
			}
			if bytes.Contains(data[:min(len(data), 512)], []byte("<rss")) {
				o.Class = "feed" // RSS, whatever outputFormats names it
			}
		case strings.HasSuffix(p, ".html"):
			data, err := os.ReadFile(filepath.Join(out, p))
			if err != nil {
				return err
			}
			classifyHTML(&o, data)
		}
		urls[o.Path] = o
		return nil
	})
	return urls, err
}

func classifyHTML(o *Output, data []byte) {
	if m := refreshRe.FindSubmatch(data); m != nil {
		o.Class = "alias"
		// The attribute is HTML-escaped: c++ is written c&#43;&#43;.
		if u, err := url.Parse(html.UnescapeString(string(m[1]))); err == nil {
			o.Target, _ = url.PathUnescape(u.EscapedPath())
		}
		return
	}
	metas := metaRe.FindAllSubmatch(data, -1)
	if metas == nil {
		return // an HTML file of the site's own, static
	}
	o.Class = "page"
	for _, m := range metas {
		switch string(m[1]) {
		case "kind":
			o.Kind = string(m[2])
		case "lang":
			o.Lang = string(m[2])
		}
	}
	if m := titleRe.FindSubmatch(data); m != nil {
		o.Title = html.UnescapeString(string(bytes.TrimSpace(m[1])))
	}
}

// RouteOf is the URL path of a written file: "/a/" for a/index.html.
func RouteOf(file string) string {
	if file == "index.html" {
		return "/"
	}
	if dir, ok := strings.CutSuffix(file, "/index.html"); ok {
		return "/" + dir + "/"
	}
	return "/" + file
}

// A Report compares the URLs Hugo wrote with the ones folio publishes.
type Report struct {
	Hugo, Matched int
	// Classes are the matched and total counts of Hugo's URLs by class.
	Classes map[string][2]int
	// Diffs are the differences: URLs missing, answered otherwise, with
	// another title or kind, and URLs folio publishes that Hugo did not.
	Diffs []string
	// Others count Hugo's URLs of the classes folio does not produce.
	Others map[string]int
}

// Add counts one of Hugo's URLs of class: matched when diff is "",
// else a difference that diff says.
func (r *Report) Add(class, diff string) {
	r.Hugo++
	n := r.Classes[class]
	n[1]++
	if diff != "" {
		r.Diffs = append(r.Diffs, diff)
	} else {
		r.Matched++
		n[0]++
	}
	r.Classes[class] = n
}

// Summary is the counts in one line.
func (r Report) Summary() string {
	var parts []string
	for _, c := range []string{"page", "feed", "alias", "file"} {
		if n := r.Classes[c]; n[1] > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", c, n[0], n[1]))
		}
	}
	var others []string
	for _, c := range NotFolios {
		if n := r.Others[c]; n > 0 {
			others = append(others, fmt.Sprintf("%s %d", c, n))
		}
	}
	s := fmt.Sprintf("%d of %d Hugo URLs answered (%s)", r.Matched, r.Hugo, strings.Join(parts, ", "))
	if len(others) > 0 {
		s += "; not folio's: " + strings.Join(others, ", ")
	}
	return s
}

// NotFolios are the classes of Hugo's output folio does not produce:
// its own sitemaps and robots.txt stand for Hugo's, and the outputs of a
// theme's custom formats, of image processing and of Hugo Pipes (an
// "asset" folio does not publish) are not folio's (see the README's
// "Moving a Hugo blog to folio").
var NotFolios = []string{"sitemap", "robots", "format", "processed", "pipes"}

// Compare compares Hugo's URLs with folio's. base is the path of the
// site's base URL ("/" or "/sub/"): Hugo's alias targets carry it.
// The classes in NotFolios are counted apart (in Report.Others). An
// alias to /blog/index.html (Hugo's link to an ugly site's section) and
// one to /blog/ are the same.
func Compare(hugo, folio map[string]Output, base string) Report {
	r := Report{Classes: map[string][2]int{}, Others: map[string]int{}}
	rest := maps.Clone(folio)
	delete(rest, "/robots.txt") // folio's own, or the site's static file
	for _, p := range slices.Sorted(maps.Keys(hugo)) {
		o := hugo[p]
		if o.Class == "asset" {
			if f, ok := rest[p]; ok && f.Class == "file" {
				o.Class = "file"
			} else {
				o.Class = "pipes"
			}
		}
		if slices.Contains(NotFolios, o.Class) {
			r.Others[o.Class]++
			continue
		}
		f, ok := rest[p]
		delete(rest, p)
		var d string
		switch {
		case !ok:
			d = fmt.Sprintf("missing %s %s %q", o.Class, p, o.Title)
		case f.Class != o.Class:
			d = fmt.Sprintf("%s: hugo %s, folio %s", p, o.Class, f.Class)
		case o.Class == "page" && ((f.Title != o.Title && !slices.Contains(f.Alt, o.Title)) || f.Kind != o.Kind || f.Lang != o.Lang):
			d = fmt.Sprintf("%s: hugo %s %q (%s), folio %s %q (%s)", p, o.Kind, o.Title, o.Lang, f.Kind, f.Title, f.Lang)
		case o.Class == "alias" && base+strings.TrimPrefix(f.Target, "/") != strings.TrimSuffix(o.Target, "index.html"):
			d = fmt.Sprintf("%s: alias to %s, folio to %s", p, o.Target, f.Target)
		}
		r.Add(o.Class, d)
	}
	for _, p := range slices.Sorted(maps.Keys(rest)) {
		r.Diffs = append(r.Diffs, fmt.Sprintf("extra %s %s", rest[p].Class, p))
	}
	return r
}
