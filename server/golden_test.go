package server

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// TestGolden compares the bodies of the fixture site with the files in
// testdata/golden; go test ./server -run Golden -update rewrites them
// after an intended change (review the diff).
func TestGolden(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	_, big := startSite(t, generatedSite(120))
	var first cursorPageJSON
	getJSON(t, big, "/api/posts/cursor/0.json", &first)
	if first.NextCursor == nil {
		t.Fatal("no second page")
	}
	for _, g := range []struct {
		file, path string
		server     string // "sample" or "big"
	}{
		{"posts.json", "/api/posts.json", "sample"},
		{"cursor-page.json", "/api/posts/cursor/" + *first.NextCursor + ".json", "big"},
		{"hello-world.md", "/blog/hello-world.md", "sample"},
		{"trip.md", "/blog/trip.md", "sample"},
		{"directory.md", "/blog.md", "sample"},
		{"rss.xml", "/rss.xml", "sample"},
		{"llms.txt", "/llms.txt", "sample"},
		{"sitemap.xml", "/sitemap.xml", "sample"},
		{"openapi.json", "/openapi.json", "sample"},
	} {
		t.Run(g.file, func(t *testing.T) {
			srv := ts
			if g.server == "big" {
				srv = big
			}
			resp, body := get(t, srv, "GET", g.path)
			if resp.StatusCode != 200 {
				t.Fatalf("GET %s: %d %s", g.path, resp.StatusCode, body)
			}
			golden(t, g.file, body)
		})
	}
}

func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join("testdata", "golden", name)
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s differs from the golden file (run with -update after an intended change):\n%s", name, firstDiff(string(want), string(got)))
	}
}

// firstDiff shows the first line that differs.
func firstDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(wl), len(gl)) {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			return "line " + strconv.Itoa(i+1) + ":\n want " + w + "\n  got " + g
		}
	}
	return "(same lines, different bytes)"
}

// TestMarkdownBody checks the parts of the Markdown body CONTRACT fixes,
// independently of the golden file.
func TestMarkdownBody(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	resp, body := get(t, ts, "GET", "/blog/trip.md")
	if ct := resp.Header.Get("Content-Type"); ct != "text/markdown; charset=utf-8" {
		t.Errorf("Content-Type %q", ct)
	}
	if l := resp.Header.Get("Link"); l != `<https://example.org/blog/trip/>; rel="canonical"` {
		t.Errorf("Link %q", l)
	}
	md := string(body)
	for _, want := range []string{
		"---\ntitle: \"A trip <with> \\\"quotes\\\" & ampersands\"\ndescription: \"\"\ndate: 2026-02-10T07:00:00Z\ntags: [\"travel\", \"naïve\"]\nurl: \"https://example.org/blog/trip/\"\n---\n\n# A trip <with> \"quotes\" & ampersands\n\n",
		`![A photo](https://example.org/blog/trip/photo.svg "Look")`,
		"*The view.*",
		"Back to https://example.org/blog/hello-world/.",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	_, hello := get(t, ts, "GET", "/blog/hello-world.md")
	for _, bad := range []string{"{{", "<!--more-->", "](../trip/)", "](dot.png)"} {
		if strings.Contains(string(hello), bad) {
			t.Errorf("hello-world.md still has %q:\n%s", bad, hello)
		}
	}
	for _, want := range []string{"[the trip](https://example.org/blog/trip/)", "![dot](https://example.org/blog/hello-world/dot.png)"} {
		if !strings.Contains(string(hello), want) {
			t.Errorf("hello-world.md lacks %q:\n%s", want, hello)
		}
	}
}

// TestMarkdownHidesUnpublished: a link to a draft renders as its text.
func TestMarkdownHidesUnpublished(t *testing.T) {
	fsys := sampleSite()
	fsys["blog/linker.md"] = &fstest.MapFile{Data: []byte("---\ntitle: Linker\ndate: 2026-01-05T00:00:00Z\n---\nSee [the draft](../draft/) and {{< ref \"future\" >}}.\n")}
	s := newServer(t, build(t, fsys, pipeline.Options{}), false)
	p := s.Snapshot().Post("linker")
	rp, err := s.markdownRep(s.current.Load(), p)
	if err != nil {
		t.Fatal(err)
	}
	md := string(rp.body)
	if strings.Contains(md, "draft/") || strings.Contains(md, "future") || !strings.Contains(md, "See the draft and") {
		t.Errorf("links to unpublished posts leak:\n%s", md)
	}
}
