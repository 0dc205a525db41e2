package pipeline

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestHiddenPagesMakeSections: a top-level folder whose pages are all
// drafts (or future, or expired) is a section Hugo 0.165 publishes with
// no page listed; dev's updates agree with a build from scratch as such
// pages come, go and are published.
func TestHiddenPagesMakeSections(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md":        post(),
		"notes/idea.md":    post("draft: true"),
		"later/soon.md":    post("date: 2099-01-01T00:00:00Z"),
		"gone/old.md":      post("expiryDate: 2001-01-01T00:00:00Z"),
		"deep/sub/d.md":    post("draft: true"),
		"files/only.png":   "png",
		"mixed/shown.md":   post(),
		"mixed/hidden.md":  post("draft: true"),
		"tags/x/_index.md": "---\ntitle: X\n---\n",
	})
	snap := build(t, fsys, Options{Root: "content"}, testNow)
	sections := func(s *Snapshot, want map[string]bool) {
		t.Helper()
		for path, shown := range want {
			if r, ok := s.Route(path); ok != shown || ok && r.Page.Kind != KindSection {
				t.Errorf("%s: route %v (%+v), want a section: %v", path, ok, r.Page, shown)
			}
		}
	}
	sections(snap, map[string]bool{"/notes/": true, "/later/": true, "/gone/": true, "/deep/": true, "/mixed/": true, "/files/": false, "/deep/sub/": false})
	if _, ok := snap.Route("/notes/idea/"); ok {
		t.Error("the draft itself is published")
	}

	steps := []struct {
		name  string
		files map[string]string // "" removes
		want  map[string]bool
	}{
		{"the last page of a section, a published one, goes; a draft stays", map[string]string{"mixed/shown.md": ""}, map[string]bool{"/mixed/": true}},
		{"the last draft goes", map[string]string{"mixed/hidden.md": ""}, map[string]bool{"/mixed/": false}},
		{"a draft in a new folder", map[string]string{"fresh/x.md": post("draft: true")}, map[string]bool{"/fresh/": true}},
		{"the draft is published", map[string]string{"fresh/x.md": post()}, map[string]bool{"/fresh/": true}},
		{"and drafted again", map[string]string{"fresh/x.md": post("draft: true")}, map[string]bool{"/fresh/": true}},
		{"a draft moves folders", map[string]string{"notes/idea.md": "", "ideas/idea.md": post("draft: true")}, map[string]bool{"/notes/": false, "/ideas/": true}},
	}
	for _, st := range steps {
		var paths []string
		for name, data := range st.files {
			if data == "" {
				delete(fsys, name)
			} else {
				fsys[name] = &fstest.MapFile{Data: []byte(data), Mode: 0o644}
			}
			paths = append(paths, name)
		}
		next, err := snap.Update(paths, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if diff := snapshotDiff(next, next.assemble(next.units, nil, testNow)); diff != "" {
			t.Fatalf("%s: the update and a build from scratch differ: %s", st.name, diff)
		}
		sections(next, st.want)
		snap = next
	}
}

// TestDraftAsHugoReadsIt: draft is cast to a boolean as Hugo 0.165 casts
// it (checked with Hugo: fixture draftsections): a number is true unless
// zero, a string is what strconv.ParseBool reads as written, and anything
// else is false with a warning at its line, since Hugo publishes the page.
func TestDraftAsHugoReadsIt(t *testing.T) {
	tests := []struct {
		value  string
		draft  bool
		warned bool
	}{
		{"true", true, false},
		{"false", false, false},
		{`"true"`, true, false},
		{`"1"`, true, false},
		{`"F"`, false, false},
		{"1", true, false},
		{"0", false, false},
		{"0.5", true, false},
		{"maybe", false, true},
		{`"yes"`, false, true},
		{`" true"`, false, true},
		{"falseforwardRef", false, true},
		{"[true]", false, true},
		{"{a: 1}", false, true},
	}
	for _, tt := range tests {
		snap := build(t, mapFS(map[string]string{"blog/p.md": "---\ntitle: T\ndate: 2024-01-01\ndraft: " + tt.value + "\n---\n"}), Options{Root: "content"}, testNow)
		if published := snap.Post("p") != nil; published == tt.draft {
			t.Errorf("draft: %s: published %v, want draft %v", tt.value, published, tt.draft)
		}
		var warned bool
		for _, p := range snap.Problems() {
			if p.Severity != Warning {
				t.Errorf("draft: %s: problem %s", tt.value, p)
			}
			warned = warned || p.Line == 4 && strings.Contains(p.Message, "draft: ") && strings.Contains(p.Message, "is not true or false; Hugo 0.165 reads it as false")
		}
		if warned != tt.warned {
			t.Errorf("draft: %s: warned %v, want %v (%v)", tt.value, warned, tt.warned, snap.Problems())
		}
	}
}
