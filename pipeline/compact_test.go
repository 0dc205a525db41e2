package pipeline

import (
	"reflect"
	"testing"
	"time"
	"unsafe"
)

// A compacted post is the same post: every field deeply equal, the
// front matter's values of the same types, for each front-matter format
// and the shapes it can hold (nested maps, lists of maps, mixed lists).
func TestCompactPostChangesNothing(t *testing.T) {
	for _, tc := range []struct{ name, src string }{
		{"yaml", "---\ntitle: A\ndate: 2026-01-02\ntags: [go, web, go]\ncategories: [notes]\naliases: [/old/]\n" +
			"params:\n  list: [1, two, {k: v, n: [x, y]}, [a, b], true, 2.5]\n  nested: {deep: {er: [one]}}\n" +
			"resources:\n  - src: a.png\n    title: A\nempty: []\nnothing: null\n---\nBody.\n"},
		{"toml", "+++\ntitle = \"B\"\ndate = 2026-01-02T10:00:00+01:00\ntags = [\"go\", \"web\"]\n" +
			"weight = 3\nlocal = 2026-01-02\n[params]\nlist = [1, \"two\", 3.5]\n[[menus.main]]\nname = \"x\"\n+++\nBody.\n"},
		{"json", "{\"title\": \"C\", \"date\": \"2026-01-02\", \"tags\": [\"go\", 1, null], \"categories\": \"one\", \"m\": {\"a\": [\"b\"]}}\nBody.\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parseContent("blog/x.md", []byte(tc.src), "x", time.UTC, true)
			if err != nil {
				t.Fatal(err)
			}
			cfg := testConfig(t)
			cfg.decodePageMeta(p, cfg.Taxonomies)
			want, err := parseContent("blog/x.md", []byte(tc.src), "x", time.UTC, true)
			if err != nil {
				t.Fatal(err)
			}
			cfg.decodePageMeta(want, cfg.Taxonomies)
			compactPost(p)
			if !reflect.DeepEqual(p, want) {
				t.Errorf("compacted post differs:\n got %#v\nwant %#v", p, want)
			}
		})
	}
}

// Two posts naming one tag hold one copy of it, in their fields and in
// their front matter's lists alike; the tag's interface value in the
// front matter is one box.
func TestCompactPostSharesValues(t *testing.T) {
	var posts []*Post
	for _, src := range []string{
		"---\ntitle: A\ndate: 2026-01-02\ntags: [golang]\n---\n",
		"---\ntitle: B\ndate: 2026-01-03\ntags: [golang]\n---\n",
	} {
		p, err := parseContent("blog/x.md", []byte(src), "x", time.UTC, true)
		if err != nil {
			t.Fatal(err)
		}
		cfg := testConfig(t)
		cfg.decodePageMeta(p, cfg.Taxonomies)
		compactPost(p)
		posts = append(posts, p)
	}
	a, b := posts[0], posts[1]
	if unsafe.StringData(a.Tags[0]) != unsafe.StringData(b.Tags[0]) {
		t.Error("the two posts' Tags hold two copies of the tag")
	}
	if &a.Terms["tags"][0] != &a.Tags[0] {
		t.Error("a post's Terms hold another copy of its Tags")
	}
	ea, eb := a.Params["tags"].([]any)[0], b.Params["tags"].([]any)[0]
	if (*[2]unsafe.Pointer)(unsafe.Pointer(&ea))[1] != (*[2]unsafe.Pointer)(unsafe.Pointer(&eb))[1] {
		t.Error("the two posts' front matter box the tag twice")
	}
	for k := range a.Params {
		for k2 := range b.Params {
			if k == k2 && unsafe.StringData(k) != unsafe.StringData(k2) {
				t.Errorf("front-matter key %q is held twice", k)
			}
		}
	}
}
