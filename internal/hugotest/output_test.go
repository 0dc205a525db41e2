package hugotest

import (
	"os"
	"path/filepath"
	"testing"
)

// TestReadOutputAliasTarget: an alias file's target is read from its
// HTML-escaped refresh URL, as Hugo writes it.
func TestReadOutputAliasTarget(t *testing.T) {
	tests := []struct{ name, url, want string }{
		{"plain", "https://example.org/blog/tags/go/", "/blog/tags/go/"},
		{"escaped plus", "https://example.org/blog/tags/c&#43;&#43;/", "/blog/tags/c++/"},
		{"escaped percent", "https://example.org/tags/%C3%A7a/", "/tags/ça/"},
		{"ampersand", "/tags/a&amp;b/", "/tags/a&b/"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := t.TempDir()
			file := filepath.Join(out, "old", "index.html")
			if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
				t.Fatal(err)
			}
			page := `<!DOCTYPE html><html><head><meta http-equiv="refresh" content="0; url=` + tt.url + `"></head></html>`
			if err := os.WriteFile(file, []byte(page), 0o644); err != nil {
				t.Fatal(err)
			}
			urls, err := ReadOutput(out)
			if err != nil {
				t.Fatal(err)
			}
			if o := urls["/old/"]; o.Class != "alias" || o.Target != tt.want {
				t.Errorf("read %+v, want an alias to %s", o, tt.want)
			}
		})
	}
}

// TestCompareAssets: a file Hugo published from assets/ is folio's when
// folio publishes it (content's image) and a Hugo Pipes output when not.
func TestCompareAssets(t *testing.T) {
	hugo := map[string]Output{
		"/images/diagram.png": {Path: "/images/diagram.png", Class: "asset"},
		"/images/photo.jpg":   {Path: "/images/photo.jpg", Class: "asset"},
	}
	folio := map[string]Output{"/images/diagram.png": {Path: "/images/diagram.png", Class: "file"}}
	r := Compare(hugo, folio, "/")
	if r.Hugo != 1 || r.Matched != 1 || r.Classes["file"] != [2]int{1, 1} || r.Others["pipes"] != 1 || len(r.Diffs) != 0 {
		t.Errorf("report %+v, want the diagram a file folio answers and the photo Hugo Pipes'", r)
	}
}

// TestMarkAssets: a file of Hugo's output that is in the site's assets
// folder, and not in static/, is an asset.
func TestMarkAssets(t *testing.T) {
	site := t.TempDir()
	for _, f := range []string{"assets/images/a.png", "assets/both.css", "static/both.css", "static/s.txt"} {
		p := filepath.Join(site, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	urls := map[string]Output{}
	for _, p := range []string{"/images/a.png", "/both.css", "/s.txt", "/other.js"} {
		urls[p] = Output{Path: p, Class: "file"}
	}
	urls["/posts/"] = Output{Path: "/posts/", Class: "page"}
	markAssets(urls, site)
	want := map[string]string{"/images/a.png": "asset", "/both.css": "file", "/s.txt": "file", "/other.js": "file", "/posts/": "page"}
	for p, class := range want {
		if urls[p].Class != class {
			t.Errorf("%s: class %s, want %s", p, urls[p].Class, class)
		}
	}
}

// TestBuildStubsRemovedShortcodes: a site calling an embedded shortcode
// Hugo removed (gist, in 0.156), which fails Hugo's build, is built with
// a stub in its place, as one of a theme that is not checked out.
func TestBuildStubsRemovedShortcodes(t *testing.T) {
	site := t.TempDir()
	for name, text := range map[string]string{
		"hugo.toml":           "baseURL = 'https://example.org/'\n",
		"content/posts/g.md":  "---\ntitle: G\ndate: 2024-01-01\n---\nA gist:\n\n{{< gist spf13 7896402 >}}\n",
		"content/posts/ok.md": "---\ntitle: OK\ndate: 2024-01-02\n---\nNo gist.\n",
	} {
		p := filepath.Join(site, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	urls := BuildSite(t, site)
	for _, p := range []string{"/posts/g/", "/posts/ok/"} {
		if urls[p].Class != "page" {
			t.Errorf("%s: %+v, want a page", p, urls[p])
		}
	}
}
