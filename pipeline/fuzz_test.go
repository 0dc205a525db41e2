package pipeline

import (
	"bytes"
	"errors"
	"strings"
	"testing"
	"time"
)

// FuzzParsePost feeds arbitrary files to the parser. Seeds are in
// testdata/fuzz/FuzzParsePost (every front-matter format, the broken files
// of problems_test.go, shortcodes). A file either parses into a usable post
// or fails with a line inside the file; never a panic, and the same bytes
// always give the same answer.
func FuzzParsePost(f *testing.F) {
	f.Add([]byte(post("tags: [go]")))
	loc := paris(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		p, err := parsePost("blog/x.md", src, "x", loc)
		lines := bytes.Count(src, []byte{'\n'}) + 1
		if err != nil {
			var ce *contentError
			if !errors.As(err, &ce) {
				t.Fatalf("error %v is not a *contentError", err)
			}
			if ce.line < 1 || ce.line > lines {
				t.Fatalf("line %d outside the file's %d lines: %s", ce.line, lines, ce.msg)
			}
			if _, err2 := parsePost("blog/x.md", src, "x", loc); err2 == nil || err2.Error() != err.Error() {
				t.Fatalf("second parse gave %v, first %v", err2, err)
			}
			return
		}
		// A post without a date is published (noDate marks it for a
		// warning), as Hugo publishes one.
		if p.Date.IsZero() != (p.noDate > 0) || p.Slug == "" || strings.ContainsAny(p.Slug, "/\\") || p.Title == "" || p.Tags == nil {
			t.Fatalf("unusable post: %+v", p)
		}
		if !p.Date.IsZero() && (p.Date.Location() != time.UTC || p.Date.Nanosecond() != 0) {
			t.Fatalf("date %v is not whole seconds in UTC", p.Date)
		}
		if p.BodyLine < 1 || p.BodyLine > lines {
			t.Fatalf("body line %d outside %d lines", p.BodyLine, lines)
		}
		q, err := parsePost("blog/x.md", src, "x", loc)
		if err != nil || q.Title != p.Title || q.Slug != p.Slug || !q.Date.Equal(p.Date) || q.Category != p.Category || q.Description != p.Description {
			t.Fatalf("second parse differs: %+v, %v", q, err)
		}
	})
}

// FuzzPage checks that any cursor is either a position or ErrBadCursor.
func FuzzPage(f *testing.F) {
	for _, s := range []string{"0", "", "AAAA", CursorFor(&Post{Slug: "a", Date: time.Unix(5, 0)}), CursorFor(&Post{Slug: strings.Repeat("é", 200)})} {
		f.Add(s)
	}
	s := build(f, mapFS(map[string]string{"blog/a.md": post(), "blog/b.md": post()}), Options{}, testNow)
	f.Fuzz(func(t *testing.T, tok string) {
		items, next, err := s.Page(tok, 1)
		if err != nil {
			if !errors.Is(err, ErrBadCursor) || items != nil || next != "" {
				t.Fatalf("Page(%q) = %v, %q, %v", tok, items, next, err)
			}
			return
		}
		if len(items) > 1 || (next != "" && len(items) == 0) {
			t.Fatalf("Page(%q) = %d items, next %q", tok, len(items), next)
		}
	})
}
