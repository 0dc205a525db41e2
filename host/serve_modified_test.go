package host

import (
	"io"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// TestReloadKeepsLastModified: a post's body edited without lastmod and
// reloaded by SIGHUP answers a revalidation with the old Last-Modified
// with 200 and the new bytes, as a watched edit does. The record of what
// was sent lives in the server, and every trigger commits to the same
// server. (SIGHUP once made a new server, which forgot the record and
// answered 304: the client kept the stale bytes.)
func TestReloadKeepsLastModified(t *testing.T) {
	for _, trigger := range []string{"signal", "watch"} {
		t.Run(trigger, func(t *testing.T) {
			dir := t.TempDir()
			content := filepath.Join(dir, "content")
			file := filepath.Join(content, "blog", "a.md")
			writeFile(t, file, post("A", "2026-01-02T15:04:05Z"))
			srv := startServing(t, Spec{Content: content}.ForServe(trigger == "watch"))
			lm := revalidate(t, srv.url+"/blog/a.md", "").Header.Get("Last-Modified")
			if got := revalidate(t, srv.url+"/blog/a.md", lm); got.StatusCode != http.StatusNotModified {
				t.Fatalf("unchanged, If-Modified-Since %s: %d, want 304", lm, got.StatusCode)
			}
			writeFile(t, file, post("A", "2026-01-02T15:04:05Z")+"A new paragraph.\n")
			if trigger == "signal" {
				srv.hup <- syscall.SIGHUP
			}
			srv.applied(t)
			got := revalidate(t, srv.url+"/blog/a.md", lm)
			if got.StatusCode != 200 || !strings.Contains(got.body, "A new paragraph.") {
				t.Errorf("edited, If-Modified-Since %s: %d (Last-Modified %s), want 200 and the new body",
					lm, got.StatusCode, got.Header.Get("Last-Modified"))
			}
		})
	}
}

type answer struct {
	*http.Response
	body string
}

// revalidate GETs url with If-Modified-Since: ims, unless ims is "".
func revalidate(t *testing.T, url, ims string) answer {
	t.Helper()
	req, err := http.NewRequest(http.MethodGet, url, nil)
	must(t, err)
	if ims != "" {
		req.Header.Set("If-Modified-Since", ims)
	}
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	must(t, err)
	return answer{resp, string(b)}
}
