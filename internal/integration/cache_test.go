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

// TestBehindVarnishNormalized puts Varnish with deploy/varnish.vcl (the
// README's) in front of folio serve: every Accept header of the parity
// list gets through the cache exactly the answer folio gives it directly,
// and the many Accept headers browsers, curl and agents send share two
// cached copies of a page (HTML and Markdown), not one each.
func TestBehindVarnishNormalized(t *testing.T) {
	s := newSite(t, "", map[string]string{
		"blog/hello.md": post("Hello", "2026-01-02T15:04:05Z", "tags: [go]") + strings.Repeat("Long enough to be compressed. ", 80) + "\n",
	})
	p := start(t, nil, "serve", "--config", s.Config, "--addr", "127.0.0.1:0")
	cache := fmt.Sprintf("127.0.0.1:%d", nginxtest.FreePort(t))
	nginxtest.VarnishVCL(t, cache, p.Addr(), "../../deploy/varnish.vcl")
	proxy := "http://" + cache

	for _, path := range []string{"/", "/blog/", "/blog/hello/", "/api/"} {
		for _, accept := range parity.AcceptHeaders {
			r := parity.Request{Path: path, Header: map[string]string{"Accept": accept}}
			direct, err := parity.Do(p.URL, r)
			if err != nil {
				t.Fatal(err)
			}
			cached, err := parity.Do(proxy, r)
			if err != nil {
				t.Fatal(err)
			}
			if cached.Status != direct.Status || !bytes.Equal(cached.Body, direct.Body) ||
				cached.Header.Get("Content-Type") != direct.Header.Get("Content-Type") {
				t.Errorf("%s, Accept %q: through Varnish %d %s, folio %d %s", path, accept,
					cached.Status, cached.Header.Get("Content-Type"), direct.Status, direct.Header.Get("Content-Type"))
			}
		}
	}

	// Seven clients, two copies: after one miss per representation,
	// every other client's request is a hit.
	clients := []string{
		"text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,image/apng,*/*;q=0.8,application/signed-exchange;v=b3;q=0.7",
		"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
		"*/*",
		"",
		"text/markdown",
		"text/markdown, text/html;q=0.9, */*;q=0.1",
		"text/html;q=0.9, text/markdown",
	}
	misses := 0
	for _, accept := range clients {
		a, err := parity.Do(proxy, parity.Request{Path: "/blog/hello/?fresh", Header: map[string]string{"Accept": accept}})
		if err != nil {
			t.Fatal(err)
		}
		if len(strings.Fields(a.Header.Get("X-Varnish"))) != 2 {
			misses++
		}
	}
	if misses != 2 {
		t.Errorf("%d cache misses for %d clients; want 2 (one HTML, one Markdown)", misses, len(clients))
	}
}
