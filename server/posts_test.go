package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

type cursorPageJSON struct {
	Items      []postJSON `json:"items"`
	NextCursor *string    `json:"nextCursor"`
}

func getJSON(t testing.TB, ts *httptest.Server, path string, into any) {
	t.Helper()
	resp, body := get(t, ts, "GET", path)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %s", path, resp.StatusCode, body)
	}
	if err := json.Unmarshal(body, into); err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
}

// walk follows nextCursor from 0 and returns every page.
func walk(t testing.TB, ts *httptest.Server) []cursorPageJSON {
	t.Helper()
	var pages []cursorPageJSON
	cursor := "0"
	for {
		var p cursorPageJSON
		getJSON(t, ts, "/api/posts/cursor/"+cursor+".json", &p)
		pages = append(pages, p)
		if p.NextCursor == nil {
			return pages
		}
		if len(pages) > 10_000 {
			t.Fatal("walk does not end")
		}
		cursor = *p.NextCursor
	}
}

func slugs(posts []postJSON) []string {
	out := make([]string, len(posts))
	for i, p := range posts {
		out[i] = p.Slug
	}
	return out
}

func TestCursorWalkEqualsCollection(t *testing.T) {
	for _, n := range []int{0, 1, 49, 50, 51, 100, 101, 1000} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			_, ts := startSite(t, generatedSite(n))
			var all cursorPageJSON
			getJSON(t, ts, "/api/posts.json", &all)
			if len(all.Items) != n {
				t.Fatalf("posts.json has %d items, want %d", len(all.Items), n)
			}
			pages := walk(t, ts)
			var walked []postJSON
			for i, p := range pages {
				if len(p.Items) > pipeline.MaxPageSize {
					t.Errorf("page %d has %d items", i, len(p.Items))
				}
				if len(p.Items) == 0 && n > 0 {
					t.Errorf("page %d of %d is empty", i, len(pages))
				}
				walked = append(walked, p.Items...)
			}
			if want := max(1, (n+49)/50); len(pages) != want {
				t.Errorf("%d pages, want %d", len(pages), want)
			}
			if !slices.EqualFunc(walked, all.Items, func(a, b postJSON) bool {
				return slices.Equal(a.Tags, b.Tags) && a.Slug == b.Slug && a.Date == b.Date && a.URL == b.URL
			}) {
				t.Errorf("walk != posts.json:\n walk %v\n all  %v", slugs(walked), slugs(all.Items))
			}
		})
	}
}

// TestCursorWalkDuringChanges adds and removes posts between pages, before
// and after the walk's position, and checks that every post present for
// the whole walk is seen exactly once.
func TestCursorWalkDuringChanges(t *testing.T) {
	fsys := generatedSite(230)
	s, ts := startSite(t, fsys)
	stayed := map[string]bool{}
	for _, p := range s.Snapshot().Posts() {
		stayed[p.Slug] = true
	}
	seen := map[string]int{}
	cursor := "0"
	for step := 0; ; step++ {
		var p cursorPageJSON
		getJSON(t, ts, "/api/posts/cursor/"+cursor+".json", &p)
		for _, it := range p.Items {
			seen[it.Slug]++
		}
		if p.NextCursor == nil {
			break
		}
		cursor = *p.NextCursor
		// Remove the newest remaining original post, one from the end,
		// and one just past the cursor; add posts at the top, the bottom
		// and with the date of the page boundary.
		snap := s.Snapshot()
		var changed []string
		remove := func(slug string) {
			name := "blog/" + slug + ".md"
			delete(fsys, name)
			delete(stayed, slug)
			changed = append(changed, name)
		}
		remove(snap.Posts()[0].Slug)
		remove(snap.Posts()[len(snap.Posts())-1].Slug)
		last := p.Items[len(p.Items)-1]
		if i := slices.IndexFunc(snap.Posts(), func(q *pipeline.Post) bool { return q.Slug == last.Slug }); i >= 0 && i+1 < len(snap.Posts()) {
			remove(snap.Posts()[i+1].Slug)
		}
		lastDate, _ := time.Parse(time.RFC3339, last.Date)
		for j, d := range []time.Time{time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC), time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC), lastDate} {
			name := fmt.Sprintf("blog/new-%d-%d.md", step, j)
			fsys[name] = &fstest.MapFile{Data: []byte(fmt.Sprintf("---\ntitle: New\ndate: %s\n---\n", d.Format(time.RFC3339)))}
			changed = append(changed, name)
		}
		next, err := snap.Update(changed, fixtureNow)
		if err != nil {
			t.Fatal(err)
		}
		s.Swap(next)
	}
	for slug := range stayed {
		if seen[slug] != 1 {
			t.Errorf("post %s that stayed was seen %d times", slug, seen[slug])
		}
	}
	for slug, n := range seen {
		if n > 1 {
			t.Errorf("post %s seen %d times", slug, n)
		}
	}
}

func TestCursorErrors(t *testing.T) {
	_, ts := startSite(t, generatedSite(120))
	const (
		syntax = `"detail":"malformed cursor: a cursor matches ^[A-Za-z0-9_-]{1,128}$; start at 0 and follow nextCursor"`
		unread = `"detail":"malformed cursor: not a cursor this API issues; start at 0 and follow nextCursor"`
	)
	for _, tc := range []struct {
		path   string
		status int
		detail string
	}{
		{"/api/posts/cursor/0.json", 200, ""},
		{"/api/posts/cursor/0", 404, ""},                     // not .json
		{"/api/posts/cursor/.json", 400, syntax},             // empty token
		{"/api/posts/cursor/abc!.json", 400, syntax},         // outside the pattern
		{"/api/posts/cursor/AAAA.json", 400, unread},         // decodes, too short
		{"/api/posts/cursor/not-a-cursor.json", 400, unread}, // the right characters, not base64 of a position
		{"/api/posts/cursor/%2F.json", 400, syntax},          // an escaped slash is part of the token
		{"/api/posts/cursor/" + longToken() + ".json", 400, syntax},
	} {
		resp, body := get(t, ts, "GET", tc.path)
		if resp.StatusCode != tc.status {
			t.Errorf("%s: status %d, want %d (%s)", tc.path, resp.StatusCode, tc.status, body)
			continue
		}
		if tc.status >= 400 && resp.Header.Get("Content-Type") != "application/problem+json" {
			t.Errorf("%s: Content-Type %q", tc.path, resp.Header.Get("Content-Type"))
		}
		if !strings.Contains(string(body), tc.detail) {
			t.Errorf("%s: body %s, want %s", tc.path, body, tc.detail)
		}
	}
}

func longToken() string {
	b := make([]byte, 129)
	for i := range b {
		b[i] = 'A'
	}
	return string(b)
}

// TestCursorAfterEnd: a token naming a position after the last post
// answers an empty last page.
func TestCursorAfterEnd(t *testing.T) {
	fsys := generatedSite(3)
	_, ts := startSite(t, fsys)
	old := &pipeline.Post{Slug: "zzz", Date: time.Date(1990, 1, 1, 0, 0, 0, 0, time.UTC)}
	var p cursorPageJSON
	getJSON(t, ts, "/api/posts/cursor/"+pipeline.CursorFor(old)+".json", &p)
	if len(p.Items) != 0 || p.NextCursor != nil {
		t.Errorf("after the end: %+v", p)
	}
}

func TestPostFields(t *testing.T) {
	_, ts := startSite(t, sampleSite())
	var all cursorPageJSON
	getJSON(t, ts, "/api/posts.json", &all)
	bySlug := map[string]postJSON{}
	for _, p := range all.Items {
		bySlug[p.Slug] = p
	}
	if _, ok := bySlug["draft"]; ok {
		t.Error("draft listed")
	}
	if _, ok := bySlug["future"]; ok {
		t.Error("future post listed")
	}
	h := bySlug["hello-world"]
	want := postJSON{Slug: "hello-world", Title: "Hello, world", Description: "First post.", Category: "notes",
		Tags: []string{"go", "http"}, Date: "2026-01-02T15:04:05Z", Updated: "2026-01-03T09:00:00Z",
		URL: "https://example.org/blog/hello-world/", MarkdownURL: "https://example.org/blog/hello-world.md"}
	if fmt.Sprint(h) != fmt.Sprint(want) {
		t.Errorf("hello-world:\n got %+v\nwant %+v", h, want)
	}
	if got := bySlug["trip"].Date; got != "2026-02-10T07:00:00Z" {
		t.Errorf("trip date %s, want UTC", got)
	}
	// Raw members: omissions and empty values as CONTRACT fixes them.
	_, body := get(t, ts, "GET", "/api/posts.json")
	var raw struct{ Items []map[string]any }
	json.Unmarshal(body, &raw)
	for _, it := range raw.Items {
		switch it["slug"] {
		case "same-day-a":
			if _, ok := it["category"]; ok {
				t.Error("empty category not left out")
			}
			if _, ok := it["updated"]; ok {
				t.Error("empty updated not left out")
			}
			if it["description"] != "" {
				t.Errorf("description %v, want empty string", it["description"])
			}
			if tags, ok := it["tags"].([]any); !ok || len(tags) != 0 {
				t.Errorf("tags %v, want []", it["tags"])
			}
		case "quiet":
			if it["description"] != "Only a summary, with a control\x01 character." {
				t.Errorf("description falls back to summary: %q", it["description"])
			}
		}
		if _, ok := it["draft"]; ok {
			t.Errorf("%v: draft member outside dev", it["slug"])
		}
	}
}

func TestDraftsMarkedInDev(t *testing.T) {
	s := newServer(t, build(t, sampleSite(), pipeline.Options{Drafts: true}), true)
	ts := httptest.NewServer(s)
	defer ts.Close()
	_, body := get(t, ts, "GET", "/api/posts.json")
	var raw struct{ Items []map[string]any }
	if err := json.Unmarshal(body, &raw); err != nil {
		t.Fatal(err)
	}
	drafts := map[string]bool{}
	for _, it := range raw.Items {
		if it["draft"] == true {
			drafts[it["slug"].(string)] = true
		}
	}
	if !drafts["draft"] || !drafts["future"] || drafts["hello-world"] || len(drafts) != 2 {
		t.Errorf("draft marks: %v, want draft and future", drafts)
	}
}

// TestCursorPageSize: api.pageSize sets the page size, and the walk
// still equals the collection.
func TestCursorPageSize(t *testing.T) {
	cfg := fixtureConfig(t)
	cfg.API.PageSize = 7
	snap, err := pipeline.Build(generatedSite(30), cfg, pipeline.Options{}, fixtureNow)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(newServer(t, snap, false))
	defer ts.Close()
	var sizes []int
	var walked []postJSON
	for _, p := range walk(t, ts) {
		sizes = append(sizes, len(p.Items))
		walked = append(walked, p.Items...)
	}
	if fmt.Sprint(sizes) != "[7 7 7 7 2]" {
		t.Errorf("page sizes %v, want [7 7 7 7 2]", sizes)
	}
	var all cursorPageJSON
	getJSON(t, ts, "/api/posts.json", &all)
	if fmt.Sprint(slugs(walked)) != fmt.Sprint(slugs(all.Items)) {
		t.Error("walk != posts.json")
	}
}
