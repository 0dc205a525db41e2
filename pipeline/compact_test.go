package pipeline

import (
	"reflect"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// compactCases are front matters of each format, in the shapes they can
// hold: nested maps, lists of maps, mixed lists, dates with and without
// a zone, numbers of each kind, null.
var compactCases = []struct{ name, src string }{
	{"yaml", "---\ntitle: A\ndate: 2026-01-02\ntags: [go, web, go]\ncategories: [notes]\naliases: [/old/]\n" +
		"params:\n  list: [1, two, {k: v, n: [x, y]}, [a, b], true, 2.5]\n  nested: {deep: {er: [one]}}\n" +
		"resources:\n  - src: a.png\n    title: A\nempty: []\nnothing: null\ntype: note\nz_weight: 4\n---\nBody.\n"},
	{"toml", "+++\ntitle = \"B\"\ndate = 2026-01-02T10:00:00+01:00\ntags = [\"go\", \"web\"]\n" +
		"weight = 3\nhuge = -9223372036854775808\n[params]\nlist = [1, \"two\", 3.5]\n[[menus.main]]\nname = \"x\"\n+++\nBody.\n"},
	{"json", "{\"title\": \"C\", \"date\": \"2026-01-02\", \"tags\": [\"go\", 1, null], \"categories\": \"one\", \"m\": {\"a\": [\"b\"]}}\nBody.\n"},
}

func compactCase(t *testing.T, src string, k *interned) (compacted, read *Post) {
	t.Helper()
	cfg := testConfig(t)
	for _, p := range []**Post{&compacted, &read} {
		var err error
		*p, err = parseContent("blog/x.md", []byte(src), "x", cfg.Location, true)
		if err != nil {
			t.Fatal(err)
		}
		cfg.decodePageMeta(*p, cfg.Taxonomies)
	}
	compactPost(compacted, cfg.Location, k)
	return compacted, read
}

// A compacted post is the same post: every field deeply equal, and its
// front matter, encoded, reads back as the same values of the same types
// (times the same instant in the same zone), whole or key by key.
func TestCompactPostChangesNothing(t *testing.T) {
	for _, tc := range compactCases {
		t.Run(tc.name, func(t *testing.T) {
			p, want := compactCase(t, tc.src, nil)
			if p.Params != nil {
				t.Fatalf("the front matter was not encoded: %#v", p.Params)
			}
			got := p.FrontMatter()
			if !sameValue(got, want.Params) {
				t.Errorf("FrontMatter() = %#v\nwant %#v", got, want.Params)
			}
			for k, v := range want.Params {
				if pv, ok := p.Param(k); !ok || !sameValue(pv, v) {
					t.Errorf("Param(%q) = %#v, %v; want %#v", k, pv, ok, v)
				}
			}
			for _, k := range []string{"", "a", "m0", "zz", "titles"} {
				if v, ok := p.Param(k); ok {
					t.Errorf("Param(%q) = %#v, want none", k, v)
				}
			}
			rest, restWant := *p, *want
			rest.Params, rest.frontMatter, rest.loc, restWant.Params = nil, "", nil, nil
			if !reflect.DeepEqual(rest, restWant) {
				t.Errorf("compacted post differs:\n got %#v\nwant %#v", rest, restWant)
			}
		})
	}
}

// A front matter with a value the encoding cannot name again (a time in
// the process's Local zone) keeps its map.
func TestCompactPostKeepsWhatCannotBeEncoded(t *testing.T) {
	when := time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)
	p := &Post{Params: map[string]any{"when": when, "tags": []any{"go"}}, PageMeta: &PageMeta{}}
	compactPost(p, time.UTC, nil)
	if p.Params == nil || p.frontMatter != "" {
		t.Fatalf("Params = %#v, encoded %q", p.Params, p.frontMatter)
	}
	if v, _ := p.Param("when"); v != when {
		t.Errorf(`Param("when") = %v, want %v`, v, when)
	}
}

// sameValue is reflect.DeepEqual, but times are equal when they are the
// same instant with the same zone name and offset.
func sameValue(a, b any) bool {
	switch a := a.(type) {
	case time.Time:
		b, ok := b.(time.Time)
		an, ao := a.Zone()
		bn, bo := b.Zone()
		return ok && a.Equal(b) && an == bn && ao == bo
	case map[string]any:
		b, ok := b.(map[string]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for k, v := range a {
			if w, ok := b[k]; !ok || !sameValue(v, w) {
				return false
			}
		}
		return true
	case []any:
		b, ok := b.([]any)
		if !ok || len(a) != len(b) || (a == nil) != (b == nil) {
			return false
		}
		for i := range a {
			if !sameValue(a[i], b[i]) {
				return false
			}
		}
		return true
	}
	return reflect.DeepEqual(a, b)
}

// Two posts of one load naming one tag hold one copy of it, even when
// the collector runs between them (unique drops a value whose handles
// are gone), and a post's Terms share its Tags.
func TestCompactPostSharesValues(t *testing.T) {
	var k interned
	a, _ := compactCase(t, "---\ntitle: A\ndate: 2026-01-02\ntags: [golang]\n---\n", &k)
	runtime.GC()
	runtime.GC()
	b, _ := compactCase(t, "---\ntitle: B\ndate: 2026-01-03\ntags: [golang]\n---\n", &k)
	if unsafe.StringData(a.Tags[0]) != unsafe.StringData(b.Tags[0]) {
		t.Error("the two posts' Tags hold two copies of the tag")
	}
	if &a.Terms["tags"][0] != &a.Tags[0] {
		t.Error("a post's Terms hold another copy of its Tags")
	}
}

// routeAndFile answers as routeOf does, with the file unchanged.
func TestRouteAndFile(t *testing.T) {
	for _, file := range []string{"index.html", "posts/hello/index.html", "posts/x.html", "fr/index.html", "a/b/c.xml", "index.htmlx", "xindex.html"} {
		route, same := routeAndFile(file)
		if route != routeOf(file) || same != file {
			t.Errorf("routeAndFile(%q) = %q, %q; want %q, %q", file, route, same, routeOf(file), file)
		}
	}
}
