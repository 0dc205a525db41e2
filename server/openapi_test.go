package server

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/pb33f/libopenapi"
	validator "github.com/pb33f/libopenapi-validator"
	"github.com/pb33f/libopenapi-validator/config"

	"folio/pipeline"
)

// served fetches /openapi.json from ts and returns a validator for it,
// failing the test unless the document is valid OpenAPI 3.1.
func served(t *testing.T, ts *httptest.Server) validator.Validator {
	t.Helper()
	resp, body := get(t, ts, "GET", "/openapi.json")
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "application/json" {
		t.Fatalf("/openapi.json: %d %s", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	doc, err := libopenapi.NewDocument(body)
	if err != nil {
		t.Fatal(err)
	}
	if v := doc.GetVersion(); v != "3.1.0" {
		t.Fatalf("openapi version %q, want 3.1.0", v)
	}
	v, errs := validator.NewValidator(doc, config.WithFormatAssertions(), config.WithContentAssertions(), config.WithStrictServerMatching())
	if len(errs) > 0 {
		t.Fatalf("building the validator: %v", errs)
	}
	if ok, verrs := v.ValidateDocument(); !ok {
		for _, e := range verrs {
			t.Errorf("document: %s: %s", e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", se.Reason, se.KeywordLocation)
			}
		}
		t.FailNow()
	}
	return v
}

// TestOpenAPIDocumentValid: the served document is OpenAPI 3.1 by the
// specification's own schema, and describes the server that serves it.
func TestOpenAPIDocumentValid(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	served(t, ts)
	_, body := get(t, ts, "GET", "/openapi.json")
	var doc struct {
		Servers []struct{ URL string }
		Paths   map[string]map[string]any
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Servers) != 1 || doc.Servers[0].URL != "https://example.org" {
		t.Errorf("servers %+v, want the base URL", doc.Servers)
	}
	for _, p := range []string{"/", "/blog/", "/blog.md", "/blog/{slug}/", "/blog/{slug}.md", "/blog/{slug}/{file}",
		"/api/posts.json", "/api/posts/cursor/{cursor}.json", "/openapi.json", "/rss.xml", "/llms.txt",
		"/sitemap.xml", "/healthz", "/sdk/blog-client.js"} {
		item, ok := doc.Paths[p]
		if !ok {
			t.Errorf("path %s not described", p)
			continue
		}
		for _, m := range []string{"get", "head", "options", "post", "delete"} {
			if _, ok := item[m]; !ok {
				t.Errorf("%s: no %s operation", p, m)
			}
		}
	}
	if !bytes.Contains(body, []byte(`"pattern": "`+strings.ReplaceAll(pipeline.CursorPattern, `\`, `\\`)+`"`)) {
		t.Error("cursor pattern not in the document")
	}
}

// responseCases are requests to every route, answering every status the
// document describes.
var responseCases = []struct {
	method, path string
	header       []string
	status       int
}{
	{"GET", "/api/posts.json", nil, 200},
	{"GET", "/api/posts.json", []string{"Accept-Encoding", "gzip"}, 200},
	{"GET", "/api/posts/cursor/0.json", nil, 200},
	{"GET", "/api/posts/cursor/AAAA.json", nil, 400},
	{"POST", "/api/posts.json", nil, 405},
	{"DELETE", "/api/posts/cursor/0.json", nil, 405},
	{"PUT", "/blog/hello-world.md", nil, 405},
	{"OPTIONS", "/api/posts.json", nil, 204},
	{"GET", "/openapi.json", nil, 200},
	{"GET", "/rss.xml", nil, 200},
	{"GET", "/llms.txt", nil, 200},
	{"GET", "/sitemap.xml", nil, 200},
	{"GET", "/healthz", nil, 200},
	{"GET", "/sdk/blog-client.js", nil, 200},
	{"GET", "/blog/hello-world.md", nil, 200},
	{"GET", "/blog/nobody.md", nil, 404},
	{"GET", "/blog/trip/photo.svg", nil, 200},
	{"GET", "/blog/trip/data.bin", nil, 200},
	{"GET", "/blog.md", nil, 200},
	{"GET", "/", nil, 200},
	{"GET", "/blog/", nil, 200},
	{"GET", "/blog/hello-world/", nil, 200},
	{"GET", "/blog/hello-world/", []string{"Accept", "text/markdown"}, 200},
	{"GET", "/blog/hello-world/", []string{"Accept", "application/json"}, 406},
	{"HEAD", "/api/posts.json", nil, 200},
}

// TestResponsesMatchOpenAPI checks every answer of every route, bodies
// and status codes, against the served document.
func TestResponsesMatchOpenAPI(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	v := served(t, ts)
	for _, tc := range responseCases {
		name := tc.method + " " + tc.path + " " + strings.Join(tc.header, ":")
		t.Run(name, func(t *testing.T) {
			resp, body := get(t, ts, tc.method, tc.path, tc.header...)
			if resp.StatusCode == http.StatusNotImplemented {
				t.Skipf("%s is not built yet (501)", tc.path) // pages of the site issue
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			validate(t, v, tc.method, tc.path, resp, body)
		})
	}
}

func validate(t *testing.T, v validator.Validator, method, path string, resp *http.Response, body []byte) {
	t.Helper()
	if resp.Header.Get("Content-Encoding") == "gzip" {
		body = gunzip(t, body)
		resp.Header.Del("Content-Encoding")
	}
	req := httptest.NewRequest(method, "https://example.org"+path, nil)
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.Request = req
	if ok, errs := v.ValidateHttpResponse(req, resp); !ok {
		for _, e := range errs {
			t.Errorf("%s %s: %s: %s", method, path, e.Message, e.Reason)
			for _, se := range e.SchemaValidationErrors {
				t.Errorf("  %s at %s", se.Reason, se.KeywordLocation)
			}
		}
	}
}

// TestValidatorCatchesBadBodies makes sure the check above can fail: a
// Post without its url, an oversized page and an undescribed status are
// all rejected.
func TestValidatorCatchesBadBodies(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	v := served(t, ts)
	bad := []struct {
		path   string
		status int
		body   string
	}{
		{"/api/posts.json", 200, `{"items":[{"slug":"x","title":"x","description":"","tags":[],"date":"2026-01-01T00:00:00Z","markdownUrl":"https://example.org/blog/x.md"}]}`},
		{"/api/posts.json", 200, `{"items":[{"slug":"x","title":"x","description":"","tags":[],"date":"2026-01-01T00:00:00.5+01:00","url":"https://example.org/blog/x/","markdownUrl":"https://example.org/blog/x.md"}]}`},
		{"/api/posts/cursor/0.json", 200, `{"items":[],"nextCursor":"not a cursor!"}`},
		{"/api/posts/cursor/0.json", 200, `{"items":[]}`},
		{"/api/posts.json", 418, `{}`},
	}
	for _, b := range bad {
		req := httptest.NewRequest("GET", "https://example.org"+b.path, nil)
		resp := &http.Response{StatusCode: b.status, Header: http.Header{"Content-Type": {"application/json"}},
			Body: io.NopCloser(strings.NewReader(b.body)), Request: req}
		if ok, _ := v.ValidateHttpResponse(req, resp); ok {
			t.Errorf("%s %d %s: accepted", b.path, b.status, b.body)
		}
	}
}
