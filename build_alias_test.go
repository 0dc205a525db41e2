package main

import (
	"maps"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"folio/host"
	"folio/internal/hugotest"
)

// TestAliasPagesAreHugos: Hugo 0.165 and folio build the fixture site
// testdata/aliases (absolute, relative, .html, slashless and non-ASCII
// aliases, a bundle's, another section's, a root page's, a second
// language's, a slug that moved a page from its alias, the lists'
// /page/1/) under each configuration below, and the plain export holds
// an alias page at exactly the paths Hugo writes one, each sending the
// browser to Hugo's target, in Hugo's language. At /, the export holds a
// page exactly when Hugo writes one, and where it writes none (the
// default language in its folder, the redirect turned off) serve answers
// the 301 to the default language's home all the same (CONTRACT, Agents:
// the probes of / pass on every site); /index.md is the home page's twin
// only where the home page is at /, else 404; where Hugo publishes the
// site's own static/index.html or index.md there, the export holds its
// bytes and serve answers them (but for the 301 it keeps at / with the
// redirect on); a second build over the first replaces it.
func TestAliasPagesAreHugos(t *testing.T) {
	bin := hugotest.Binary(t)
	const site = "https://example.org/blog/"
	const base = "baseURL = '" + site + "'\ntitle = 'Aliases'\ndefaultContentLanguage = 'en'\n"
	const tables = "[languages.en]\nweight = 1\nlanguageCode = 'en-GB'\n[languages.fr]\nweight = 2\n"
	cases := []struct {
		name, top, more string
		// least is the fewest alias pages the case must have.
		least int
		// moved are Hugo's alias paths folio writes elsewhere, on
		// purpose: under uglyURLs Hugo writes the default language's
		// redirect at its home's link with the language glued on
		// (hugolib renderDefaultSiteRedirect: "/index.html" + "en/"),
		// a path no one asks for; folio, as it answers in serve, at
		// /en/.
		moved map[string]string
		// static are files of the site's static folder.
		static map[string]string
	}{
		{name: "default", least: 26},
		{name: "default language in a subfolder", top: "defaultContentLanguageInSubdir = true\n", least: 26},
		{name: "uglyURLs", top: "uglyURLs = true\n", least: 26, moved: map[string]string{"/index.htmlen/": "/en/"}},
		{name: "uglyURLs in one section", more: "[uglyURLs]\nnotes = true\n", least: 26},
		{name: "disableAliases", top: "disableAliases = true\n", least: 11},
		{name: "pagination disableAliases", more: "[pagination]\ndisableAliases = true\n", least: 16},
		{name: "pager size 1", more: "[pagination]\npagerSize = 1\n", least: 26},
		{name: "disableDefaultLanguageRedirect", top: "defaultContentLanguageInSubdir = true\ndisableDefaultLanguageRedirect = true\n", least: 25},
		{name: "disableDefaultSiteRedirect", top: "disableDefaultSiteRedirect = true\n", least: 25},
		{name: "disableDefaultSiteRedirect in a subfolder", top: "defaultContentLanguageInSubdir = true\ndisableDefaultSiteRedirect = true\n", least: 25},
		{name: "disableDefaultSiteRedirect in a subfolder, static index", top: "defaultContentLanguageInSubdir = true\ndisableDefaultSiteRedirect = true\n", least: 25,
			static: rootFiles},
		// Not a static index.html with the redirect on: Hugo writes
		// both at once, and which one stays is a race.
		{name: "default language in a subfolder, static index.md", top: "defaultContentLanguageInSubdir = true\n", least: 26,
			static: map[string]string{"index.md": rootFiles["index.md"]}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			if err := os.CopyFS(dir, os.DirFS(filepath.Join("testdata", "aliases"))); err != nil {
				t.Fatal(err)
			}
			write(t, dir, "hugo.toml", base+c.top+tables+c.more)
			for name, text := range c.static {
				write(t, dir, "static/"+name, text)
			}
			hugoOut := filepath.Join(t.TempDir(), "public")
			if _, err := hugotest.BuildWith(bin, dir, t.TempDir(), hugoOut); err != nil {
				t.Fatal(err)
			}
			out := filepath.Join(t.TempDir(), "public")
			build(t, dir, out)
			build(t, dir, out) // the first is recognised as an export
			rootAsHugos(t, dir, hugoOut, out, site)
			hugo, folio := aliasPagesIn(t, hugoOut), aliasPagesIn(t, out)
			for from, to := range c.moved {
				h, ok := hugo[from]
				if !ok {
					t.Errorf("Hugo wrote no alias page at %s: is the quirk gone?", from)
				}
				delete(hugo, from)
				hugo[to] = h
			}
			if len(hugo) < c.least {
				t.Errorf("Hugo wrote %d alias pages, want at least %d: the case tests too little", len(hugo), c.least)
			}
			for _, p := range slices.Sorted(maps.Keys(hugo)) {
				h, f := hugo[p], folio[p]
				switch {
				case f == (aliasPage{}):
					t.Errorf("%s: Hugo writes an alias page to %s, folio none", p, h.target)
				case f != h:
					t.Errorf("%s: Hugo's alias page goes to %s (lang %q), folio's to %s (lang %q)", p, h.target, h.lang, f.target, f.lang)
				}
			}
			for _, p := range slices.Sorted(maps.Keys(folio)) {
				if _, ok := hugo[p]; !ok {
					t.Errorf("%s: folio writes an alias page to %s, Hugo none", p, folio[p].target)
				}
			}
			t.Logf("%d alias pages", len(hugo))
		})
	}
}

// rootAsHugos fails the test unless the export in out has a page at /
// exactly when Hugo's in hugoOut has one, and serve answers / with 301
// where Hugo has none (the redirect folio's hosts keep for the agents'
// probes); and /index.md (folio's Markdown twin of /) likewise, but 404
// in serve where Hugo has none. Where nothing is at /, no page or agent
// file of the export links to it (base, the site's URL): they give the
// default language's home instead. Only the API's base URL is base
// itself (the client's, the search form's, the API catalog's anchor) and
// the API page's example of the 301 at /.
func rootAsHugos(t *testing.T, dir, hugoOut, out, base string) {
	t.Helper()
	h, err := host.Load(host.Spec{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	has := func(dir, name string) bool {
		_, err := os.Stat(filepath.Join(dir, name))
		return err == nil
	}
	status := func(path string) int {
		rec := httptest.NewRecorder()
		h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://example.org"+path, nil))
		return rec.Code
	}
	read := func(dir, name string) []byte {
		data, _ := os.ReadFile(filepath.Join(dir, name))
		return data
	}
	hugo := has(hugoOut, "index.html")
	// The home page's twin is there where Hugo writes the home page at
	// /: neither a redirect to the default language's home nor the
	// site's own static file.
	static := func(name string) bool {
		own := read(filepath.Join(dir, "static"), name)
		return own != nil && slices.Equal(own, read(hugoOut, name))
	}
	twin := hugo && !refreshURL.Match(read(hugoOut, "index.html")) && !static("index.html")
	for _, c := range []struct {
		path, file string
		there      bool
	}{{"/", "index.html", hugo}, {"/index.md", "index.md", twin || static("index.md")}} {
		if exported := has(out, c.file); exported != c.there {
			t.Errorf("export: %s at %s is %v; Hugo writes a page there: %v", c.file, c.path, exported, c.there)
		}
		switch got := status(c.path); {
		case c.path == "/" && !c.there:
			if got != http.StatusMovedPermanently {
				t.Errorf("serve: / answers %d, want 301 to the default language's home; Hugo writes no page there", got)
			}
		case (got == http.StatusNotFound) == c.there:
			t.Errorf("serve: %s answers %d; Hugo writes a page there: %v", c.path, got, c.there)
		}
		if !static(c.file) {
			continue
		}
		// Hugo publishes the site's own file there: the export holds it,
		// serve answers it (or, at /, the 301 it keeps with a warning).
		if !slices.Equal(read(out, c.file), read(hugoOut, c.file)) {
			t.Errorf("export: %s is not the site's static/%s that Hugo publishes", c.file, c.file)
		}
		rec := httptest.NewRecorder()
		h.Server().ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "http://example.org"+c.path, nil))
		if rec.Code != http.StatusMovedPermanently && (rec.Code != http.StatusOK || !slices.Equal(rec.Body.Bytes(), read(hugoOut, c.file))) {
			t.Errorf("serve: %s answers %d %.60q, not the site's static/%s that Hugo publishes", c.path, rec.Code, rec.Body.Bytes(), c.file)
		}
	}
	if hugo {
		return
	}
	apiBase := regexp.MustCompile(`(createClient\(|data-base-url=|e\.g\. |"anchor": )"` + regexp.QuoteMeta(base) + `"|curl ` + regexp.QuoteMeta(base) + `(<|\n)`)
	toRoot := regexp.MustCompile(regexp.QuoteMeta(base) + `([^\w.%/-]|$)`)
	err = filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || strings.HasSuffix(p, ".gz") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if m := toRoot.Find(apiBase.ReplaceAll(data, nil)); m != nil {
			rel, _ := filepath.Rel(out, p)
			t.Errorf("export: %s links to %q, where nothing is", rel, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// rootFiles are a site's own files at its root, which Hugo publishes
// there when it writes no home page at / (a language chooser).
var rootFiles = map[string]string{
	"index.html": "<!doctype html><title>Choose a language</title><a href=\"en/\">English</a>\n",
	"index.md":   "# Choose a language\n",
}

// An aliasPage is what an alias page of an export says: where it sends
// the browser (an absolute URL, its folder's index.html as the folder)
// and its lang.
type aliasPage struct{ target, lang string }

var (
	refreshURL = regexp.MustCompile(`<meta http-equiv="refresh" content="0; url=([^"]+)"`)
	canonical  = regexp.MustCompile(`<link rel="canonical" href="([^"]+)"`)
	htmlLang   = regexp.MustCompile(`<html lang="([^"]*)"`)
)

// aliasPagesIn reads the alias pages of the export in out, by URL path;
// every one's canonical link is its target.
func aliasPagesIn(t *testing.T, out string) map[string]aliasPage {
	t.Helper()
	pages := map[string]aliasPage{}
	err := filepath.WalkDir(out, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		m := refreshURL.FindSubmatch(data)
		if m == nil {
			return nil
		}
		rel, _ := filepath.Rel(out, p)
		route := hugotest.RouteOf(filepath.ToSlash(rel))
		target := strings.TrimSuffix(string(m[1]), "index.html")
		if c := canonical.FindSubmatch(data); c == nil || strings.TrimSuffix(string(c[1]), "index.html") != target {
			t.Errorf("%s: the canonical link is not the refresh's target %s", route, target)
		}
		var lang string
		if l := htmlLang.FindSubmatch(data); l != nil {
			lang = string(l[1])
		}
		pages[route] = aliasPage{target: target, lang: lang}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return pages
}

// TestBuildSaysAliasPages: build counts the alias pages apart from the
// routes, and says of an alias it writes no page for (its file differs
// only in case from a post's page) where it is declared and why, without
// failing; serve's answer there, the post's page, is the file.
func TestBuildSaysAliasPages(t *testing.T) {
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Aliases'\n")
	write(t, dir, "content/posts/hello.md", "---\ntitle: Hello\ndate: 2024-01-01T00:00:00Z\naliases: [/old/hello/, /Posts/Hello/]\n---\nHi.\n")
	out := filepath.Join(t.TempDir(), "public")
	msg := build(t, dir, out)
	want := "content/posts/hello.md:4: warning: alias /Posts/Hello/ gets no redirect page in the export (folio serve and the nginx and Cloudflare configs answer its 301; a bare static host answers 404): its file Posts/Hello/index.html and posts/hello/index.html of /posts/hello/ differ only in case\n"
	if !strings.Contains(msg, want) {
		t.Errorf("build said\n%s\nwant the line\n%s", msg, want)
	}
	// /old/hello/, and /page/1/ of the home page, the section and the
	// two taxonomies.
	if !regexp.MustCompile(`folio: wrote \d+ routes and 5 alias pages \(1 post\)`).MatchString(msg) {
		t.Errorf("build said %q, want the routes and 5 alias pages counted apart", msg)
	}
	pages := aliasPagesIn(t, out)
	if pages["/old/hello/"].target != "https://example.org/posts/hello/" || len(pages) != 5 {
		t.Errorf("alias pages: %v", pages)
	}
	if data, err := os.ReadFile(filepath.Join(out, "posts", "hello", "index.html")); err != nil || strings.Contains(string(data), "http-equiv") {
		t.Errorf("the post's page is not the post: %v", err)
	}
}
