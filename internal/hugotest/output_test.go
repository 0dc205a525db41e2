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
