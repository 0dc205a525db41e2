package export

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestAliasPage(t *testing.T) {
	cases := []struct{ location, lang, want string }{
		{"https://example.org/blog/caf%C3%A9/", "fr-FR", `<!DOCTYPE html>
<html lang="fr-FR">
<head>
<meta charset="utf-8">
<title>https://example.org/blog/caf%C3%A9/</title>
<link rel="canonical" href="https://example.org/blog/caf%C3%A9/">
<meta http-equiv="refresh" content="0; url=https://example.org/blog/caf%C3%A9/">
</head>
<body>
<p><a href="https://example.org/blog/caf%C3%A9/">https://example.org/blog/caf%C3%A9/</a></p>
</body>
</html>
`},
		// What HTML gives a meaning to is escaped; no lang, no attribute.
		{`https://example.org/a&b/"x"/`, "", `<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>https://example.org/a&amp;b/&#34;x&#34;/</title>
<link rel="canonical" href="https://example.org/a&amp;b/&#34;x&#34;/">
<meta http-equiv="refresh" content="0; url=https://example.org/a&amp;b/&#34;x&#34;/">
</head>
<body>
<p><a href="https://example.org/a&amp;b/&#34;x&#34;/">https://example.org/a&amp;b/&#34;x&#34;/</a></p>
</body>
</html>
`},
	}
	for _, c := range cases {
		got := string(AliasPage(c.location, c.lang))
		if got != c.want {
			t.Errorf("AliasPage(%q, %q):\n%s\nwant\n%s", c.location, c.lang, got, c.want)
		}
		if len(got) >= 1024 {
			t.Errorf("AliasPage(%q) is %d bytes: a page over 1 KiB gets a .gz twin", c.location, len(got))
		}
	}
}

// TestWriteAliasPages: the export writes a page at each alias it can
// (recorded with the 301, no .gz twin, left out of the nginx config's
// files), leaves out, and says why, each alias whose file a route holds
// or that differs from another file only in case; a build over it keeps
// the pages, and one without the aliases removes them.
func TestWriteAliasPages(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	opts := fakeOptions
	opts.Aliases = []Alias{
		{Path: "/moved/a/", Lang: "en"},
		{Path: "/moved/b.html", Lang: "fr", Source: "content/b.md"},
		{Path: "/moved/B.html"},     // b.html's in another case
		{Path: "/blog.md/"},         // under a route's file
		{Path: "/blog/caf%C3%A9"},   // a route's folder
		{Path: "/"},                 // a route's file
		{Path: "/moved/caf%C3%A9/"}, // escaped, written decoded
	}
	site, err := Write(out, fakeSite{}, fakePaths, opts)
	if err != nil {
		t.Fatal(err)
	}
	pages := map[string]string{"moved/a/index.html": "en", "moved/b.html": "fr", "moved/café/index.html": ""}
	for name, lang := range pages {
		got, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if want := AliasPage("https://example.org/blog/", lang); string(got) != string(want) {
			t.Errorf("%s:\n%s\nwant\n%s", name, got, want)
		}
		if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(name)) + ".gz"); err == nil {
			t.Errorf("%s has a .gz twin", name)
		}
	}
	var recorded []string
	for _, f := range site.Files {
		if f.IsAliasPage() {
			recorded = append(recorded, f.Name)
			if f.Header.Get("Location") != "https://example.org/blog/" || f.Gzip {
				t.Errorf("%s: recorded with Location %q, gzip %v", f.Path, f.Header.Get("Location"), f.Gzip)
			}
		}
	}
	slices.Sort(recorded)
	if want := []string{"moved/a/index.html", "moved/b.html", "moved/café/index.html"}; !slices.Equal(recorded, want) {
		t.Errorf("alias pages recorded: %q, want %q", recorded, want)
	}
	var left []string
	for _, a := range site.AliasesLeftOut {
		left = append(left, a.Path+": "+a.Why)
	}
	want := []string{
		"/moved/B.html: its file moved/B.html and moved/b.html of /moved/b.html differ only in case",
		"/blog.md/: its folder blog.md is the file of /blog.md",
		"/blog/caf%C3%A9: its file blog/café is the folder of /blog/caf%C3%A9/photo.png",
		"/: its file index.html is /'s",
	}
	if !slices.Equal(left, want) {
		t.Errorf("left out:\n%s\nwant\n%s", strings.Join(left, "\n"), strings.Join(want, "\n"))
	}
	conf, _, err := Nginx(site, NginxOptions{Root: out, Listen: "80", BaseURL: "https://example.org/", Self: "/x.conf", Script: "/x.js", NotFound: "/404.html", Refusals: fakeRefusals})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(conf), "moved/a/index.html") {
		t.Error("the nginx config serves an alias page's file")
	}

	// Over it: nothing written; without the aliases: they go.
	again, err := Write(out, fakeSite{}, fakePaths, opts)
	if err != nil {
		t.Fatal(err)
	}
	// (The fake 404 page and its twin have no ETag: they are written
	// again every time.)
	if !again.Updated || again.Written != 2 {
		t.Errorf("over the same export: updated %v, %d files written, want only the 404 page's 2", again.Updated, again.Written)
	}
	gone, err := Write(out, fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	if gone.Removed != 3 {
		t.Errorf("without the aliases: %d files removed, want 3", gone.Removed)
	}
	if _, err := os.Stat(filepath.Join(out, "moved")); err == nil {
		t.Error("the alias pages' folder is still there")
	}
}

// TestWriteAliasNotRedirected: an alias the server does not answer with
// a 301 fails the export (Options.Aliases are the server's redirects).
func TestWriteAliasNotRedirected(t *testing.T) {
	opts := fakeOptions
	opts.Aliases = []Alias{{Path: "/nowhere/"}}
	_, err := Write(filepath.Join(t.TempDir(), "public"), fakeSite{}, fakePaths, opts)
	if err == nil || !strings.Contains(err.Error(), "answered 404, want 301") {
		t.Errorf("err = %v, want the 404 the alias answered", err)
	}
}
