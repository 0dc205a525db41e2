package pipeline

import (
	"regexp"
	"slices"
	"testing"
	"time"
	"unicode/utf8"
)

// FuzzCursorRoundTrip checks the cursor encoder and decoder together, for
// any publish date and any slug (long ones are cut and hashed): the token
// matches the contract's pattern, decodes, and the page after it in a
// snapshot holding the post and neighbours sharing its date and slug
// prefix is exactly the posts that follow it, whatever the page size.
// FuzzPage covers arbitrary tokens. Seeds are in
// testdata/fuzz/FuzzCursorRoundTrip.
//
//	go test ./pipeline -run '^$' -fuzz '^FuzzCursorRoundTrip$' -fuzztime 1m
func FuzzCursorRoundTrip(f *testing.F) {
	f.Add(int64(1767225600), "hello-world", uint8(2))
	pattern := regexp.MustCompile(CursorPattern)
	f.Fuzz(func(t *testing.T, unix int64, slug string, size uint8) {
		if slug == "" || !utf8.ValidString(slug) {
			return // slugs come from valid UTF-8 files and names
		}
		date := time.Unix(unix, 0).UTC()
		if date.Year() < 1 || date.Year() > 9999 {
			return // front matter dates are four-digit years
		}
		self := &Post{Slug: slug, Date: date}
		tok := CursorFor(self)
		if !pattern.MatchString(tok) {
			t.Fatalf("CursorFor(%q, %v) = %q, outside %s", slug, date, tok, CursorPattern)
		}
		if _, err := decodeCursor(tok); err != nil {
			t.Fatalf("the issued cursor %q for %q does not decode: %v", tok, slug, err)
		}
		s := &Snapshot{posts: neighbours(self)}
		i := slices.Index(s.posts, self)
		page := max(int(size)%8, 1)
		items, next, err := s.Page(tok, page)
		if err != nil {
			t.Fatalf("Page(%q): %v", tok, err)
		}
		want := s.posts[i+1 : min(i+1+page, len(s.posts))]
		if !slices.Equal(items, want) {
			t.Fatalf("after %q (%v): got %v, want %v", slug, date, slugs(items), slugs(want))
		}
		if (next == "") != (i+1+page >= len(s.posts)) {
			t.Fatalf("after %q: next cursor %q with %d of %d posts left", slug, next, len(s.posts)-i-1, len(s.posts))
		}
	})
}

// neighbours returns p among posts that sort right next to it: the same
// date with slugs extending, preceding and following it (and so sharing
// a cut prefix when it is long), and the seconds just before and after.
func neighbours(p *Post) []*Post {
	posts := []*Post{p}
	for _, s := range []string{p.Slug + "a", p.Slug + "\U0010ffff", p.Slug[:len(p.Slug)-1], "", "~", p.Slug + p.Slug} {
		if s != p.Slug && utf8.ValidString(s) {
			posts = append(posts, &Post{Slug: s, Date: p.Date})
		}
	}
	posts = append(posts, &Post{Slug: p.Slug, Date: p.Date.Add(time.Second)}, &Post{Slug: p.Slug, Date: p.Date.Add(-time.Second)})
	slices.SortFunc(posts, Compare)
	return slices.CompactFunc(posts, func(a, b *Post) bool { return a.Slug == b.Slug && a.Date.Equal(b.Date) })
}
