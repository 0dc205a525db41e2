package server

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// answerOf is a response as a client sees it: status, every header but
// Date, sorted, and the body.
func answerOf(rec *httptest.ResponseRecorder) string {
	res := rec.Result()
	var b strings.Builder
	fmt.Fprintf(&b, "%d\n", res.StatusCode)
	keys := make([]string, 0, len(res.Header))
	for k := range res.Header {
		if k != "Date" {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		fmt.Fprintf(&b, "%s: %q\n", k, res.Header[k])
	}
	b.WriteString("\n")
	b.Write(rec.Body.Bytes())
	return b.String()
}

// ask sends one request to s and returns its answer.
func ask(s *Server, method, target string, header ...string) string {
	req := httptest.NewRequest(method, target, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return answerOf(rec)
}

// etagAt is the ETag of path's answer to header.
func etagAt(s *Server, path string, header ...string) string {
	req := httptest.NewRequest("GET", path, nil)
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Add(header[i], header[i+1])
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Header().Get("Etag")
}

type askCase struct {
	method, target string
	header         []string
}

// preparedParity asks both servers each case, the preparing one three
// times (the first answer goes the whole way and prepares, the next come
// from the prepared answer), and wants the same bytes every time.
func preparedParity(t *testing.T, prep, plain *Server, cases []askCase) {
	t.Helper()
	for _, c := range cases {
		want := ask(plain, c.method, c.target, c.header...)
		for i := range 3 {
			if got := ask(prep, c.method, c.target, c.header...); got != want {
				t.Errorf("%s %s %q, answer %d:\n%s\nwithout prepared answers:\n%s", c.method, c.target, c.header, i+1, got, want)
				break
			}
		}
	}
}

func unpreparedServer(t *testing.T, snap *pipeline.Snapshot) *Server {
	t.Helper()
	s, err := New(snap, Options{Site: testSite(), Started: time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestPreparedAnswersAsHandlers: a server with prepared answers answers
// every request, asked again and again, byte for byte as one without:
// the cases a prepared answer must not decide alone (another media by
// Accept, 406, another encoding, 304 and 412 by each precondition, HEAD,
// other methods, paths to clean or escaped, a slash missing or added)
// each after the path's answer was prepared by another request.
func TestPreparedAnswersAsHandlers(t *testing.T) {
	snap := build(t, sampleSite(), pipeline.Options{})
	prep, plain := newServer(t, snap, false), unpreparedServer(t, snap)
	var cases []askCase
	for _, path := range []string{"/blog/hello-world/", "/blog/trip/", "/", "/blog/", "/api/", "/blog/hello-world.md", "/blog.md",
		"/index.md", "/api.md", "/api/posts.json", "/api/posts/cursor/0.json", "/rss.xml", "/index.xml", "/blog/index.xml"} {
		gz, id := etagAt(plain, path, "Accept-Encoding", "gzip"), etagAt(plain, path)
		md := etagAt(plain, path, "Accept", "text/markdown")
		for _, h := range [][]string{
			nil, // prepares the identity HTML (or only) answer; then the rest
			{"Accept-Encoding", "gzip"},
			{"Accept-Encoding", "gzip;q=0"},
			{"Accept-Encoding", "identity, gzip;q=0.5"},
			{"Accept-Encoding", "br"},
			{"Accept-Encoding", "*"},
			{"Accept", "text/markdown"},
			{"Accept", "text/markdown", "Accept-Encoding", "gzip"},
			{"Accept", "text/html;q=0.5, text/markdown"},
			{"Accept", "text/html", "Accept", "text/markdown"},
			{"Accept", "text/html;q=0.9, text/markdown;q=0.8"},
			{"Accept", "image/png"},
			{"Accept", "*/*"},
			{"Accept", "text/*;q=0.1"},
			{"Accept", "nonsense"},
			{"If-None-Match", id},
			{"If-None-Match", gz},
			{"If-None-Match", gz, "Accept-Encoding", "gzip"},
			{"If-None-Match", "W/" + gz, "Accept-Encoding", "gzip"},
			{"If-None-Match", md, "Accept", "text/markdown"},
			{"If-None-Match", `"other", ` + id},
			{"If-None-Match", "*"},
			{"If-Match", `"other"`},
			{"If-Match", id},
			{"If-Match", "W/" + id},
			{"If-Match", gz, "Accept-Encoding", "gzip"},
			{"If-Unmodified-Since", "Mon, 01 Jan 2001 00:00:00 GMT"},
			{"If-Modified-Since", "Mon, 01 Jan 2001 00:00:00 GMT"},
			{"If-Modified-Since", "Mon, 01 Jan 2099 00:00:00 GMT"},
			{"If-Modified-Since", "Mon, 01 Jan 2099 00:00:00 GMT", "If-None-Match", `"other"`},
			{"If-Modified-Since", "not a date"},
		} {
			cases = append(cases, askCase{"GET", path, h})
		}
		for _, m := range []string{"HEAD", "POST", "OPTIONS", "DELETE"} {
			cases = append(cases, askCase{m, path, nil}, askCase{m, path, []string{"Accept-Encoding", "gzip", "Accept", "text/markdown"}})
		}
		cases = append(cases, askCase{"HEAD", path, []string{"If-None-Match", gz, "Accept-Encoding", "gzip"}})
		cases = append(cases, askCase{"GET", path + "?q=1", nil})
	}
	for _, path := range []string{"/blog//hello-world/", "/blog/./hello-world/", "/blog/x/../hello-world/", "/blog/hello%2Dworld/",
		"/blog%2Fhello-world/", "/blog/hello-world", "/blog/hello-world//", "/blog/hello-world.md/", "/blog/nope/", "/api/posts/cursor/zz.json",
		"/blog/trip/photo.svg", "/blog/trip/data.bin"} {
		for range 2 {
			cases = append(cases, askCase{"GET", path, nil}, askCase{"GET", path, []string{"Accept-Encoding", "gzip", "Accept", "text/markdown"}})
		}
	}
	preparedParity(t, prep, plain, cases)
	for _, path := range []string{"/blog/hello-world/", "/", "/blog/", "/blog/hello-world.md", "/blog.md", "/api/posts.json", "/api/posts/cursor/0.json", "/blog/index.xml"} {
		v, ok := prep.current.Load().prepared.Load(path)
		if !ok || v.(*preparedPath).byMedia[0].Load() == nil {
			t.Errorf("%s: no prepared answer: the cases above did not reach them", path)
		}
	}
}

// TestPreparedAnswersPerSnapshot: a prepared answer belongs to its
// snapshot: once a post is gone (or a scheduled one is published), its
// path answers as the new snapshot says.
func TestPreparedAnswersPerSnapshot(t *testing.T) {
	fsys := sampleSite()
	prep, plain := newServer(t, build(t, fsys, pipeline.Options{}), false), unpreparedServer(t, build(t, fsys, pipeline.Options{}))
	paths := []string{"/blog/hello-world/", "/blog/hello-world.md", "/blog/future/", "/blog/future.md"}
	var cases []askCase
	for _, p := range paths {
		cases = append(cases, askCase{"GET", p, nil}, askCase{"GET", p, []string{"Accept-Encoding", "gzip"}}, askCase{"GET", p, []string{"Accept", "text/markdown"}})
	}
	preparedParity(t, prep, plain, cases)
	if !strings.HasPrefix(ask(prep, "GET", "/blog/hello-world/"), "200") {
		t.Fatal("the post is not served before the swap")
	}

	next := fstest.MapFS{}
	for k, v := range fsys {
		if k != "blog/hello-world.md" {
			next[k] = v
		}
	}
	later, err := pipeline.Build(next, fixtureConfig(t), pipeline.Options{}, time.Date(2027, 6, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Server{prep, plain} {
		if err := s.Swap(later); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range cases {
		want, got := ask(plain, c.method, c.target, c.header...), ask(prep, c.method, c.target, c.header...)
		// Only the status and body: a list's bytes changed, so its
		// Last-Modified is the second each server made it in.
		if cut(got) != cut(want) {
			t.Errorf("after the swap, %s %q:\n%s\nwithout prepared answers:\n%s", c.target, c.header, got, want)
		}
	}
	if a := ask(prep, "GET", "/blog/hello-world/"); !strings.HasPrefix(a, "404") {
		t.Errorf("the removed post's page, after the swap: %.40q, want 404", a)
	}
	if a := ask(prep, "GET", "/blog/future/"); !strings.HasPrefix(a, "200") {
		t.Errorf("the post published by the swap: %.40q, want 200", a)
	}
}

// cut is an answer's status and body.
func cut(answer string) string {
	status, rest, _ := strings.Cut(answer, "\n")
	_, body, _ := strings.Cut(rest, "\n\n")
	return status + "\n" + body
}

// TestPreparedAnswersBounded: cursors the snapshot does not issue (made
// up, or from an older snapshot) get a page made for the request, which
// is never kept, so that made-up paths cannot fill memory; the issued
// ones and the site's paths are kept.
func TestPreparedAnswersBounded(t *testing.T) {
	snap := build(t, generatedSite(120), pipeline.Options{})
	prep, plain := newServer(t, snap, false), unpreparedServer(t, snap)
	var first cursorPageJSON
	if err := json.Unmarshal([]byte(cut(ask(plain, "GET", "/api/posts/cursor/0.json"))[4:]), &first); err != nil {
		t.Fatal(err)
	}
	if first.NextCursor == nil {
		t.Fatal("one cursor page only: the site is too small")
	}
	issued := "/api/posts/cursor/" + *first.NextCursor + ".json"
	items, _, err := snap.Page(pipeline.FirstCursor, 7) // a start no walk of this snapshot issues
	if err != nil || len(items) == 0 {
		t.Fatal(err)
	}
	_, odd, err := snap.Page(pipeline.FirstCursor, 7)
	if err != nil || odd == "" {
		t.Fatal("no cursor at 7", err)
	}
	unissued := "/api/posts/cursor/" + odd + ".json"
	cases := []askCase{{"GET", issued, nil}, {"GET", unissued, nil}, {"GET", unissued, []string{"Accept-Encoding", "gzip"}},
		{"GET", "/blog/page/2/", nil}, {"GET", "/blog/page/2/", []string{"Accept", "text/markdown"}}, {"GET", "/blog/page/2.md", nil}}
	preparedParity(t, prep, plain, cases)
	kept := func(p string) bool { _, ok := prep.current.Load().prepared.Load(p); return ok }
	if !kept(issued) {
		t.Errorf("%s (issued) is not kept", issued)
	}
	if kept(unissued) {
		t.Errorf("%s (not issued by this snapshot) is kept", unissued)
	}
	for _, p := range []string{"/blog/nope/", "/api/nope", "/blog/post-00001"} {
		ask(prep, "GET", p)
		if kept(p) {
			t.Errorf("%s (no page: a 404 or a redirect) is kept", p)
		}
	}
}

// TestPreparedAnswersOffInDevAndExport: folio dev never prepares, and a
// server that was not told to (the export's) keeps nothing.
func TestPreparedAnswersOffInDevAndExport(t *testing.T) {
	snap := build(t, sampleSite(), pipeline.Options{})
	for name, s := range map[string]*Server{"dev": newServer(t, snap, true), "export": unpreparedServer(t, snap)} {
		for range 2 {
			ask(s, "GET", "/blog/hello-world/")
		}
		n := 0
		s.current.Load().prepared.Range(func(any, any) bool { n++; return true })
		if n != 0 {
			t.Errorf("%s: %d prepared answers, want none", name, n)
		}
	}
}
