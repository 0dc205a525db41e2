package host

import (
	"net/http"
	"strings"
	"testing"
)

// TestDevOtherLoopbackName: a page asked for as localhost when dev serves
// 127.0.0.1 (the sample config says localhost) is redirected to the base
// URL, whose origin its assets and Content-Security-Policy name; another
// port is answered as it is, another host refused.
func TestDevOtherLoopbackName(t *testing.T) {
	dir := newDevDir(t, map[string]string{"content/blog/x.md": post("Title A", "2026-01-01T00:00:00Z")})
	f := startDev(t, dir, nil)
	port := f.url[strings.LastIndex(f.url, ":")+1:]
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	for _, tc := range []struct {
		host     string
		status   int
		location string
	}{
		{"localhost:" + port, 307, f.url + "/blog/x/?q=1"},
		{"LOCALHOST:" + port, 307, f.url + "/blog/x/?q=1"},
		{"[::1]:" + port, 307, f.url + "/blog/x/?q=1"},
		{"127.0.0.1:" + port, 200, ""},
		{"localhost:1", 200, ""},         // another port: someone else's
		{"example.com:" + port, 421, ""}, // not dev's: refused (server/devguard.go)
	} {
		req, err := http.NewRequest("GET", f.url+"/blog/x/?q=1", nil)
		must(t, err)
		req.Host = tc.host
		resp, err := client.Do(req)
		must(t, err)
		resp.Body.Close()
		if resp.StatusCode != tc.status || resp.Header.Get("Location") != tc.location {
			t.Errorf("Host %s: %d, Location %q; want %d, %q", tc.host, resp.StatusCode, resp.Header.Get("Location"), tc.status, tc.location)
		}
		cache := "no-cache"
		if tc.status >= 400 {
			cache = "no-store" // errors, as everywhere
		}
		if resp.Header.Get("Cache-Control") != cache || resp.Header.Get("X-Content-Type-Options") != "nosniff" {
			t.Errorf("Host %s: headers %v", tc.host, resp.Header)
		}
	}
}
