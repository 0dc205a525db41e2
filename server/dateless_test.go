package server

import (
	"encoding/json"
	"net/http/httptest"
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestPageWithoutDate: a post without a date is published, as Hugo
// publishes it: listed last, with no date in its JSON, no pubDate in the
// feed and no date line in its twin; it is a warning, not a problem.
func TestPageWithoutDate(t *testing.T) {
	snap := build(t, fstest.MapFS{
		"blog/old.md":     {Data: []byte("---\ntitle: Dated\ndate: 2020-01-01\n---\nOld.\n")},
		"blog/undated.md": {Data: []byte("---\ntitle: Undated\n---\nNo date.\n")},
	}, pipeline.Options{})
	if ps := snap.Problems(); len(pipeline.Errors(ps)) > 0 || len(ps) != 1 {
		t.Fatalf("problems: %v, want one warning", ps)
	}
	ts := httptest.NewServer(newServer(t, snap, false))
	t.Cleanup(ts.Close)

	_, body := get(t, ts, "GET", "/api/posts.json")
	var list struct {
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal(body, &list); err != nil {
		t.Fatal(err)
	}
	if len(list.Items) != 2 || list.Items[0]["title"] != "Dated" || list.Items[1]["title"] != "Undated" {
		t.Fatalf("posts: %s", body)
	}
	if _, has := list.Items[1]["date"]; has {
		t.Errorf("the undated post has a date: %v", list.Items[1])
	}
	_, feed := get(t, ts, "GET", "/rss.xml")
	if strings.Count(string(feed), "<pubDate>") != 1 || strings.Contains(string(feed), "0001") {
		t.Errorf("feed:\n%s", feed)
	}
	_, twin := get(t, ts, "GET", "/blog/undated.md")
	if strings.Contains(string(twin), "\ndate:") || !strings.Contains(string(twin), "# Undated") {
		t.Errorf("twin:\n%s", twin)
	}
	_, page := get(t, ts, "GET", "/blog/undated/")
	if strings.Contains(string(page), "0001") {
		t.Errorf("the page shows the zero date:\n%s", page)
	}
}
