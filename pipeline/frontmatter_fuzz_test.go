package pipeline

import (
	"errors"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzFrontMatter feeds arbitrary front matter to the decoders, inside a
// well-formed block of each format (YAML ---, TOML +++, JSON {…}), so
// that the fuzzer spends its time in the decoders rather than on the
// block's delimiters (FuzzParsePost covers whole files). A block either
// decodes into typed fields that make sense or is a problem on a line of
// the block; the same bytes give the same answer; nothing panics. Seeds
// are in testdata/fuzz/FuzzFrontMatter (every field and alias, every
// date form, hostile YAML: aliases, anchors, merge keys, tags, deep
// nesting).
//
//	go test ./pipeline -run '^$' -fuzz '^FuzzFrontMatter$' -fuzztime 1m
func FuzzFrontMatter(f *testing.F) {
	f.Add(uint8(0), "title: T\ndate: 2026-01-02\ntags: [a, b]")
	loc := time.FixedZone("test", 3600)
	f.Fuzz(func(t *testing.T, format uint8, data string) {
		var src string
		switch format % 3 {
		case 0:
			src = "---\n" + data + "\n---\nbody\n"
		case 1:
			src = "+++\n" + data + "\n+++\nbody\n"
		default:
			src = "{" + data + "}\nbody\n"
		}
		p, err := parsePost("blog/x.md", []byte(src), "x", loc)
		if err != nil {
			var ce *contentError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *contentError", err)
			}
			if lines := strings.Count(src, "\n"); ce.line < 1 || ce.line > lines {
				t.Fatalf("problem on line %d of a %d-line file: %s", ce.line, lines, ce.msg)
			}
			if _, again := parsePost("blog/x.md", []byte(src), "x", loc); again == nil || again.Error() != err.Error() {
				t.Fatalf("the same file gave %v, then %v", err, again)
			}
			return
		}
		if !p.Date.IsZero() && (p.Date.Location() != time.UTC || p.Date.Nanosecond() != 0) {
			t.Fatalf("date %v: not whole seconds in UTC", p.Date)
		}
		if !p.Lastmod.IsZero() && (p.Lastmod.Location() != time.UTC || p.Lastmod.Nanosecond() != 0) {
			t.Fatalf("lastmod %v: not whole seconds in UTC", p.Lastmod)
		}
		if p.Slug == "" || strings.ContainsAny(p.Slug, "/\\") || p.Tags == nil {
			t.Fatalf("unusable post: slug %q, tags %v", p.Slug, p.Tags)
		}
		for _, s := range append(append([]string{p.Title, p.Description, p.Category, p.Slug}, p.Tags...), p.Aliases...) {
			if !utf8.ValidString(s) {
				t.Fatalf("field %q is not valid UTF-8", s)
			}
		}
		for k := range p.Params {
			if k != strings.ToLower(k) {
				t.Fatalf("front-matter key %q not lower-cased", k)
			}
		}
	})
}
