package server

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"

	"folio/pipeline"
)

// TestDevGuard: folio dev answers only its own Host names and nothing a
// browser marks cross-site, so neither another website nor a DNS
// rebinding name can read the drafts it shows; folio serve answers all.
func TestDevGuard(t *testing.T) {
	snap := build(t, sampleSite(), pipeline.Options{Drafts: true})
	dev, err := New(snap, Options{Site: testSite(), Dev: true, Hosts: []string{"192.168.1.20"}})
	if err != nil {
		t.Fatal(err)
	}
	devTS := httptest.NewServer(dev)
	t.Cleanup(devTS.Close)
	serveTS := httptest.NewServer(newServer(t, build(t, sampleSite(), pipeline.Options{}), false))
	t.Cleanup(serveTS.Close)
	own := devTS.URL // http://127.0.0.1:PORT
	port := own[strings.LastIndex(own, ":")+1:]

	for _, tc := range []struct {
		name   string
		header []string
		dev    int // status from dev; serve answers 200 to all
	}{
		{"plain", nil, 200},
		{"loopback address", []string{"Host", "127.0.0.1:" + port}, 200},
		{"localhost", []string{"Host", "localhost:" + port}, 200},
		{"LOCALHOST.", []string{"Host", "LOCALHOST.:" + port}, 200},
		{"a name under localhost", []string{"Host", "app.localhost:" + port}, 200},
		{"IPv6 loopback", []string{"Host", "[::1]:" + port}, 200},
		{"another loopback address", []string{"Host", "127.8.9.1"}, 200},
		{"the base URL's host", []string{"Host", "example.org"}, 200},
		{"an --addr host", []string{"Host", "192.168.1.20:" + port}, 200},
		{"a rebinding name", []string{"Host", "attacker.example:" + port}, 421},
		{"a name ending in localhost", []string{"Host", "evillocalhost:" + port}, 421},
		{"another address", []string{"Host", "10.0.0.1:" + port}, 421},
		{"same-origin fetch", []string{"Sec-Fetch-Site", "same-origin", "Origin", own}, 200},
		{"navigation typed by the author", []string{"Sec-Fetch-Site", "none"}, 200},
		{"same-site page without Origin", []string{"Sec-Fetch-Site", "same-site"}, 200},
		{"cross-site", []string{"Sec-Fetch-Site", "cross-site"}, 403},
		{"cross-site with own Origin", []string{"Sec-Fetch-Site", "cross-site", "Origin", own}, 403},
		{"another origin", []string{"Origin", "https://evil.example"}, 403},
		{"another port on localhost", []string{"Origin", "http://localhost:3000"}, 403},
		{"an opaque origin", []string{"Origin", "null"}, 403},
		{"the base URL's origin", []string{"Origin", "https://example.org"}, 200},
	} {
		for _, path := range []string{"/api/posts.json", "/blog/hello-world.md", "/blog/"} {
			resp, body := get(t, devTS, "GET", path, tc.header...)
			if resp.StatusCode != tc.dev {
				t.Errorf("dev, %s, %s: %d; want %d", tc.name, path, resp.StatusCode, tc.dev)
			}
			if v := resp.Header.Get("Access-Control-Allow-Origin"); v != "" {
				t.Errorf("dev, %s, %s: Access-Control-Allow-Origin %q", tc.name, path, v)
			}
			if tc.dev != 200 {
				var p struct {
					Status int
					Detail string
				}
				if resp.Header.Get("Content-Type") != "application/problem+json" || json.Unmarshal(body, &p) != nil || p.Status != tc.dev || p.Detail == "" {
					t.Errorf("dev, %s, %s: %s %q; want a problem body", tc.name, path, resp.Header.Get("Content-Type"), body)
				}
				if strings.Contains(string(body), "Draft") {
					t.Errorf("dev, %s, %s: the refusal shows a draft: %s", tc.name, path, body)
				}
			}
			if resp, _ := get(t, serveTS, "GET", path, tc.header...); resp.StatusCode != 200 {
				t.Errorf("serve, %s, %s: %d; want 200", tc.name, path, resp.StatusCode)
			}
		}
	}

	// No CORS in dev on any route, preflight and errors included.
	for _, req := range []struct{ method, path string }{
		{"OPTIONS", "/api/posts.json"}, {"GET", "/api/nope.json"}, {"GET", "/openapi.json"},
		{"GET", "/rss.xml"}, {"GET", "/llms.txt"}, {"GET", "/sdk/blog-client.js"}, {"POST", "/api/posts.json"},
	} {
		resp, _ := get(t, devTS, req.method, req.path, "Access-Control-Request-Method", "GET")
		for k := range resp.Header {
			if strings.HasPrefix(k, "Access-Control-") {
				t.Errorf("dev %s %s: %s: %s", req.method, req.path, k, resp.Header.Get(k))
			}
		}
		if resp, _ := get(t, serveTS, req.method, req.path); resp.Header.Get("Access-Control-Allow-Origin") != "*" {
			t.Errorf("serve %s %s: no CORS header", req.method, req.path)
		}
	}
}
