package integration

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"strings"
	"testing"

	"folio/internal/nginxtest"
	"folio/internal/parity"
)

const (
	browserAccept = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"
	agentAccept   = "text/markdown, text/html;q=0.9, */*;q=0.1"
)

// TestBehindVarnish puts a real shared cache (Varnish, built-in VCL) in
// front of folio serve: a browser and an agent alternately asking the same
// article URL each always get their own representation, both are served
// from the cache, and conditional requests get 304s from it.
func TestBehindVarnish(t *testing.T) {
	s := newSite(t, "", map[string]string{
		"blog/hello.md": post("Hello", "2026-01-02T15:04:05Z", "tags: [go]") + strings.Repeat("Long enough to be compressed. ", 80) + "\n",
	})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	cache := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	nginxtest.Varnish(t, cache, p.Addr())
	proxy := "http://" + cache

	ask := func(base, accept string, more ...string) *parity.Answer {
		t.Helper()
		h := map[string]string{"Accept": accept}
		for i := 0; i+1 < len(more); i += 2 {
			h[more[i]] = more[i+1]
		}
		a, err := parity.Do(base, parity.Request{Path: "/blog/hello/", Header: h})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	html, md := ask(p.URL, browserAccept), ask(p.URL, agentAccept)
	if !strings.HasPrefix(html.Header.Get("Content-Type"), "text/html") || !strings.HasPrefix(md.Header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("folio itself answers %s and %s", html.Header.Get("Content-Type"), md.Header.Get("Content-Type"))
	}

	hits := map[string]int{}
	for i := range 10 {
		for _, c := range []struct {
			name, accept string
			want         *parity.Answer
		}{{"browser", browserAccept, html}, {"agent", agentAccept, md}} {
			got := ask(proxy, c.accept)
			if got.Status != 200 || !bytes.Equal(got.Body, c.want.Body) || got.Header.Get("Content-Type") != c.want.Header.Get("Content-Type") {
				t.Fatalf("round %d, %s: got %d %s %.60q, want its own representation", i, c.name, got.Status, got.Header.Get("Content-Type"), got.Body)
			}
			if !strings.Contains(got.Header.Get("Vary"), "Accept") {
				t.Errorf("%s: Vary %q through the cache", c.name, got.Header.Get("Vary"))
			}
			// X-Varnish holds two transaction ids on a hit.
			if len(strings.Fields(got.Header.Get("X-Varnish"))) == 2 {
				hits[c.name]++
			}
		}
	}
	if hits["browser"] < 9 || hits["agent"] < 9 {
		t.Errorf("cache hits %v in 10 rounds each; Varnish did not keep both representations", hits)
	}

	// Compressed and plain answers from the cache stay each its own.
	gz := ask(proxy, browserAccept, "Accept-Encoding", "gzip")
	if gz.Header.Get("Content-Encoding") != "gzip" || gunzip(t, gz.Body) != string(html.Body) {
		t.Errorf("gzip through the cache: %s, body differs", gz.Header.Get("Content-Encoding"))
	}

	// 304s: each representation's validator revalidates it, and only it.
	for _, c := range []struct {
		name, accept string
		rep          *parity.Answer
	}{{"browser", browserAccept, html}, {"agent", agentAccept, md}} {
		etag := ask(proxy, c.accept).Header.Get("ETag")
		if etag == "" {
			t.Fatalf("%s: no ETag through the cache", c.name)
		}
		if got := ask(proxy, c.accept, "If-None-Match", etag); got.Status != 304 || len(got.Body) != 0 {
			t.Errorf("%s: If-None-Match its ETag through the cache: %d, want 304", c.name, got.Status)
		}
		lm := c.rep.Header.Get("Last-Modified")
		if got := ask(proxy, c.accept, "If-Modified-Since", lm); got.Status != 304 {
			t.Errorf("%s: If-Modified-Since %s through the cache: %d, want 304", c.name, lm, got.Status)
		}
	}
	other := ask(proxy, agentAccept, "If-None-Match", ask(proxy, browserAccept).Header.Get("ETag"))
	if other.Status != 200 || !bytes.Equal(other.Body, md.Body) {
		t.Errorf("the agent revalidating with the browser's ETag got %d %.40q, want its Markdown", other.Status, other.Body)
	}
}

func gunzip(t *testing.T, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
