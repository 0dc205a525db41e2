package integration

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestHostlessBaseURL: a Hugo baseURL that is only a path ("/blog/", the
// hostless fixture) links, in dev and in serve, at the address served,
// where folio answers: the stylesheet, the favicon and every link of the
// home page answer 200. folio answers at the root of its address only,
// so the path is dropped, as dev drops a full baseURL's.
func TestHostlessBaseURL(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "..", "pipeline", "testdata", "sites", "hostless"))
	if err != nil {
		t.Fatal(err)
	}
	attr := regexp.MustCompile(`<(?:link|a)\b[^>]*\bhref="([^"#]+)"`)
	for _, cmd := range []string{"serve", "dev"} {
		t.Run(cmd, func(t *testing.T) {
			p := start(t, nil, cmd, "--source", dir, "--addr", "127.0.0.1:0")
			home := get(t, p.URL+"/")
			var urls []string
			for _, m := range attr.FindAllStringSubmatch(home, -1) {
				if strings.HasPrefix(m[1], "http://127.0.0.1") {
					urls = append(urls, m[1])
				}
			}
			var sheet, post bool
			for _, u := range urls {
				sheet = sheet || regexp.MustCompile(`/static/style\.[0-9a-f]+\.css$`).MatchString(u)
				post = post || strings.HasSuffix(u, "/posts/first/")
				if !strings.HasPrefix(u, p.URL+"/") {
					t.Errorf("home links to %s, not at the address served, %s/", u, p.URL)
					continue
				}
				get(t, u) // fails the test unless 200
			}
			if !sheet || !post {
				t.Errorf("home links to a stylesheet: %v, to the post: %v; want both among %q", sheet, post, urls)
			}
		})
	}
}
