package hugotest

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"testing"
)

// An Output is one URL of a site Hugo built with the oracle theme.
type Output struct {
	Path  string // the URL path, unescaped: "/posts/hello/", "/img/a.png"
	Class string // "page", "alias", "feed", "sitemap", "file"
	// Title, Kind and Lang are a page's, as the oracle theme writes them.
	Title, Kind, Lang string
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
// in a copy whose own layouts are gone but for its shortcodes, and returns
// every URL Hugo wrote.
func BuildSite(t testing.TB, dir string) map[string]Output {
	t.Helper()
	work := CopySite(t, dir)
	KeepShortcodesOnly(t, work)
	out := t.TempDir()
	run(t, work, "--themesDir", ThemesDir(), "--theme", "theme", "--destination", out, "--environment", "production", "--noBuildLock", "--quiet")
	return ReadOutput(t, out)
}

// KeepShortcodesOnly removes a site's layouts but its shortcode
// templates, so that the oracle theme renders every page.
func KeepShortcodesOnly(t testing.TB, site string) {
	t.Helper()
	layouts := filepath.Join(site, "layouts")
	keep := t.TempDir()
	for _, sub := range []string{"shortcodes", "_shortcodes"} {
		if _, err := os.Stat(filepath.Join(layouts, sub)); err == nil {
			if err := os.CopyFS(filepath.Join(keep, sub), os.DirFS(filepath.Join(layouts, sub))); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.RemoveAll(layouts); err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(layouts, os.DirFS(keep)); err != nil {
		t.Fatal(err)
	}
}

var (
	metaRe    = regexp.MustCompile(`<meta name="folio-(kind|lang)" content="([^"]*)">`)
	titleRe   = regexp.MustCompile(`(?s)<title>(.*?)</title>`)
	refreshRe = regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)"`)
)

// ReadOutput classifies every file of a Hugo build in out.
func ReadOutput(t testing.TB, out string) map[string]Output {
	t.Helper()
	urls := map[string]Output{}
	err := fs.WalkDir(os.DirFS(out), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		o := Output{Path: RouteOf(p), Class: "file"}
		switch {
		case path.Base(p) == "sitemap.xml":
			o.Class = "sitemap"
		case path.Base(p) == "index.xml":
			o.Class = "feed"
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
	if err != nil {
		t.Fatal(err)
	}
	return urls
}

func classifyHTML(o *Output, data []byte) {
	if m := refreshRe.FindSubmatch(data); m != nil {
		o.Class = "alias"
		if u, err := url.Parse(string(m[1])); err == nil {
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
		o.Title = htmlUnescape(string(bytes.TrimSpace(m[1])))
	}
}

// htmlUnescape undoes the escaping Go templates give a title.
func htmlUnescape(s string) string {
	r := strings.NewReplacer("&amp;", "&", "&lt;", "<", "&gt;", ">", "&#34;", `"`, "&#39;", "'", "&quot;", `"`)
	return r.Replace(s)
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
