package server

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
	"folio/site"
)

// fixtureNow is the instant fixture snapshots are built for.
var fixtureNow = time.Date(2026, 6, 1, 12, 0, 0, 0, time.UTC)

// fixtureConfig is the configuration of every fixture site: a base URL
// that no test request uses as Host, so a leak of the Host header shows.
func fixtureConfig(t testing.TB) *pipeline.Config {
	t.Helper()
	cfg, err := pipeline.ParseConfig([]byte(`
baseURL = "https://example.org/"
title = "Fixture & Co"
description = "A site for tests: <em>escaped</em>."
language = "en"
[feed]
limit = 3
`), "fixture.toml")
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

// sampleSite is the hand-written fixture behind the golden files: every
// field present and absent, a bundle, shortcodes, links, characters that
// JSON, XML and Markdown must escape, a draft and a scheduled post.
func sampleSite() fstest.MapFS {
	file := func(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }
	return fstest.MapFS{
		"blog/hello-world.md": file(`---
title: "Hello, world"
description: "First post."
date: 2026-01-02T15:04:05Z
lastmod: 2026-01-03T09:00:00Z
categories: [notes]
tags: [go, http]
---
Hello. See [the trip](../trip/) and [Go](https://go.dev/).

<!--more-->

More text with an image ![dot](dot.png).
`),
		"blog/trip/index.md": file(`+++
title = "A trip <with> \"quotes\" & ampersands"
date = 2026-02-10T08:00:00+01:00
tags = ["travel", "naïve"]
category = "life"
+++
{{< figure src="photo.svg" alt="A photo" title="Look" caption="The view." >}}

Back to {{< ref "hello-world" >}}.
`),
		"blog/trip/photo.svg": file(`<svg xmlns="http://www.w3.org/2000/svg" width="1" height="1"/>`),
		"blog/trip/data.bin":  file("\x00\x01\x02"),
		"blog/quiet.md": file(`{
  "title": "Quiet",
  "date": "2026-03-01T00:00:00Z",
  "summary": "Only a summary, with a control\u0001 character."
}
Nothing much.
`),
		"blog/same-day-a.md": file("---\ntitle: Same day A\ndate: 2026-03-01T00:00:00Z\n---\nA.\n"),
		"blog/draft.md":      file("---\ntitle: Draft\ndate: 2026-01-01T00:00:00Z\ndraft: true\n---\nSecret.\n"),
		"blog/future.md":     file("---\ntitle: Future\ndate: 2027-01-01T00:00:00Z\n---\nLater.\n"),
		"blog/long.md":       file("---\ntitle: Long\ndate: 2025-12-01T00:00:00Z\ndescription: A long one.\n---\n" + strings.Repeat("Lorem ipsum dolor sit amet, consectetur adipiscing elit. ", 60) + "\n"),
	}
}

// generatedSite is n posts with distinct dates, some sharing a date so
// that the slug breaks ties, for cursor walks.
func generatedSite(n int) fstest.MapFS {
	fsys := fstest.MapFS{}
	base := time.Date(2020, 1, 1, 0, 0, 0, 0, time.UTC)
	for i := range n {
		date := base.Add(time.Duration(i/3) * time.Hour) // three posts per instant
		fsys[fmt.Sprintf("blog/post-%05d.md", i)] = &fstest.MapFile{Data: []byte(fmt.Sprintf(
			"---\ntitle: Post %d\ndate: %s\ntags: [t%d]\n---\nBody %d.\n", i, date.Format(time.RFC3339), i%7, i))}
	}
	return fsys
}

func build(t testing.TB, fsys fstest.MapFS, opts pipeline.Options) *pipeline.Snapshot {
	t.Helper()
	snap, err := pipeline.Build(fsys, fixtureConfig(t), opts, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	return snap
}

func newServer(t testing.TB, snap *pipeline.Snapshot, dev bool) *Server {
	t.Helper()
	s, err := New(snap, Options{Site: testSite(), Dev: dev, Started: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	s.PrepareAnswers() // as folio serve; dev never prepares
	return s
}

// startSite serves fsys over real HTTP for the length of the test.
func startSite(t testing.TB, fsys fstest.MapFS) (*Server, *httptest.Server) {
	t.Helper()
	s := newServer(t, build(t, fsys, pipeline.Options{}), false)
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return s, ts
}

// get requests path with the given header pairs and returns the response
// with its body read. Compression is left to the test: the transport's
// transparent gzip is off.
func get(t testing.TB, ts *httptest.Server, method, path string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, ts.URL+path, nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1] // the client ignores a Host header field
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := testClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, body
}

// testClient neither decompresses nor follows redirects, so tests see the
// answers as sent.
var testClient = &http.Client{
	Transport:     &http.Transport{DisableCompression: true},
	CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
}

// testSite is the embedded theme when it is complete, so these tests
// exercise the real pages; until then, a minimal theme of the same layout.
func testSite() fs.FS {
	if _, err := loadTheme(site.FS, false, time.Now()); err == nil {
		return site.FS
	}
	main := &fstest.MapFile{Data: []byte(`{{define "main"}}page{{end}}`)}
	return fstest.MapFS{
		"templates/base.html":      {Data: []byte(`<!doctype html><title>t</title>{{template "main" .}}`)},
		"templates/home.html":      main,
		"templates/directory.html": main,
		"templates/article.html":   main,
		"templates/404.html":       main,
		"sdk/blog-client.js":       {Data: []byte("export {};\n")},
	}
}

func gunzip(t testing.TB, body []byte) []byte {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
