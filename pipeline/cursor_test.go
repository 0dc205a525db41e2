package pipeline

import (
	"encoding/base64"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"
)

// site returns a snapshot of n posts, two per date so that ties occur.
func site(t *testing.T, n int) *Snapshot {
	t.Helper()
	files := map[string]string{}
	for i := range n {
		d := time.Date(2025, 1, 1+i/2, 0, 0, 0, 0, time.UTC)
		files[fmt.Sprintf("blog/p%02d.md", i)] = post("date: " + d.Format(time.RFC3339))
	}
	return build(t, mapFS(files), Options{}, testNow)
}

// walk follows nextCursor from FirstCursor and returns the pages.
func walk(t *testing.T, s *Snapshot, size int) (pages [][]*Post, tokens []string) {
	t.Helper()
	cur := FirstCursor
	for range len(s.posts) + 2 {
		tokens = append(tokens, cur)
		items, next, err := s.Page(cur, size)
		if err != nil {
			t.Fatalf("Page(%q): %v", cur, err)
		}
		pages = append(pages, items)
		if next == "" {
			return pages, tokens
		}
		cur = next
	}
	t.Fatal("the walk does not end")
	return nil, nil
}

func TestCursorWalk(t *testing.T) {
	for _, tc := range []struct{ posts, size, pages int }{
		{0, 3, 1}, {1, 3, 1}, {7, 3, 3}, {6, 3, 2}, {6, 1, 6}, {5, 50, 1},
	} {
		t.Run(fmt.Sprintf("%d posts by %d", tc.posts, tc.size), func(t *testing.T) {
			s := site(t, tc.posts)
			pages, tokens := walk(t, s, tc.size)
			if len(pages) != tc.pages {
				t.Errorf("%d pages, want %d", len(pages), tc.pages)
			}
			var all []*Post
			for i, p := range pages {
				if len(p) == 0 && tc.posts > 0 {
					t.Errorf("page %d is empty", i)
				}
				all = append(all, p...)
			}
			if !slices.Equal(all, s.posts) {
				t.Errorf("walk = %v, want %v", slugs(all), slugs(s.posts))
			}
			if got := s.Cursors(tc.size); !slices.Equal(got, tokens) {
				t.Errorf("Cursors = %q, walk issued %q", got, tokens)
			}
		})
	}
}

func TestCursorTokens(t *testing.T) {
	re := regexp.MustCompile(CursorPattern)
	long := strings.Repeat("x", 500)
	longMulti := strings.Repeat("é", 250) // 500 bytes, a cut must not split a letter
	for _, slug := range []string{"a", "hello-world", "日本語", strings.Repeat("y", 87), strings.Repeat("y", 88), long, longMulti} {
		p := &Post{Slug: slug, Date: date("2025-01-02T03:04:05Z")}
		tok := CursorFor(p)
		if !re.MatchString(tok) {
			t.Errorf("CursorFor(%d-byte slug) = %q (%d chars) does not match the pattern", len(slug), tok, len(tok))
		}
		pos, err := decodeCursor(tok)
		if err != nil {
			t.Fatalf("decodeCursor(%q): %v", tok, err)
		}
		if pos.date != p.Date.Unix() || !strings.HasPrefix(slug, pos.slug) {
			t.Errorf("decoded %+v from slug %q", pos, slug)
		}
		if CursorFor(&Post{Slug: slug, Date: p.Date}) != tok {
			t.Error("the token is not a function of (date, slug)")
		}
	}
	// Tokens differ when the date or the slug does.
	a := CursorFor(&Post{Slug: "a", Date: date("2025-01-01T00:00:00Z")})
	if a == CursorFor(&Post{Slug: "b", Date: date("2025-01-01T00:00:00Z")}) || a == CursorFor(&Post{Slug: "a", Date: date("2025-01-01T00:00:01Z")}) {
		t.Error("distinct positions share a token")
	}
	if CursorFor(&Post{Slug: long, Date: time.Unix(0, 0)}) == CursorFor(&Post{Slug: long + "z", Date: time.Unix(0, 0)}) {
		t.Error("long slugs with a common prefix share a token")
	}
}

func TestMalformedCursors(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	valid := CursorFor(&Post{Slug: "x", Date: time.Unix(1, 0)})
	for _, tok := range []string{
		"", "1", "00", "-", "a+b", "a/b", "a=", "abc.json", "%41", "a b",
		strings.Repeat("A", 129),
		enc([]byte("k")),                                        // too short
		enc([]byte("k12345678")),                                // header without a slug
		enc([]byte("z12345678slug")),                            // unknown tag
		enc([]byte("k12345678\xff\xfe")),                        // slug not UTF-8
		enc([]byte("h12345678abc")),                             // hashed without room for the hash
		valid[:len(valid)-1] + "_",                              // non-canonical last character
		strings.TrimRight(enc([]byte("k12345678s")), "A") + "B", // non-zero padding bits
	} {
		s := site(t, 3)
		items, next, err := s.Page(tok, 2)
		if !errors.Is(err, ErrBadCursor) || items != nil || next != "" {
			t.Errorf("Page(%q) = %d items, %q, %v; want ErrBadCursor", tok, len(items), next, err)
		}
	}
}

func TestCursorAfterLast(t *testing.T) {
	s := site(t, 4)
	last := CursorFor(s.posts[len(s.posts)-1])
	items, next, err := s.Page(last, 2)
	if err != nil || len(items) != 0 || next != "" {
		t.Errorf("after the last post: %d items, %q, %v", len(items), next, err)
	}
	// A position older than every post is after the last one too.
	items, next, err = s.Page(CursorFor(&Post{Slug: "a", Date: time.Unix(0, 0)}), 2)
	if err != nil || len(items) != 0 || next != "" {
		t.Errorf("before the epoch: %d items, %q, %v", len(items), next, err)
	}
	// A position newer than every post starts at the top.
	items, _, _ = s.Page(CursorFor(&Post{Slug: "a", Date: date("2100-01-01T00:00:00Z")}), 2)
	if !slices.Equal(items, s.posts[:2]) {
		t.Errorf("from the future: %v", slugs(items))
	}
}

func TestCursorBadPageSize(t *testing.T) {
	s := site(t, 3)
	for _, size := range []int{0, -1} {
		items, next, err := s.Page(FirstCursor, size)
		if err != nil || len(items) != 1 || next == "" {
			t.Errorf("Page(0, %d) = %d items, %q, %v; want one item", size, len(items), next, err)
		}
		if got := s.Cursors(size); len(got) != 3 {
			t.Errorf("Cursors(%d) = %q", size, got)
		}
	}
}

// TestCursorStableUnderChange removes and adds posts between two pages: no
// post that was there for the whole walk is skipped or repeated.
func TestCursorStableUnderChange(t *testing.T) {
	files := map[string]string{}
	for i := range 6 {
		files[fmt.Sprintf("blog/p%d.md", i)] = post(fmt.Sprintf("date: 2025-01-0%dT00:00:00Z", 1+i))
	}
	fsys := mapFS(files)
	s := build(t, fsys, Options{}, testNow)
	page1, next, _ := s.Page(FirstCursor, 2) // p5 p4
	if got := strings.Join(slugs(page1), " "); got != "p5 p4" {
		t.Fatalf("page 1 = %s", got)
	}
	delete(fsys, "blog/p4.md") // the post the cursor names
	delete(fsys, "blog/p5.md") // one already seen
	set(fsys, "blog/new.md", post("date: 2025-02-01T00:00:00Z"))
	set(fsys, "blog/p35.md", post("date: 2025-01-04T00:00:00Z")) // same date as p3, sorts after it
	s2, _ := s.Update([]string{"blog/p4.md", "blog/p5.md", "blog/new.md", "blog/p35.md"}, testNow)
	page2, _, err := s2.Page(next, 10)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(slugs(page2), " "); got != "p3 p35 p2 p1 p0" {
		t.Errorf("page 2 = %s, want p3 p35 p2 p1 p0", got)
	}
}

// TestCursorLongSlugs walks posts with 500-byte slugs that share a long
// prefix and a date, where tokens hold a cut slug and a hash.
func TestCursorLongSlugs(t *testing.T) {
	files := map[string]string{}
	prefix := strings.Repeat("long-", 100)
	for i := range 5 {
		files[fmt.Sprintf("blog/%c.md", 'a'+i)] = post("slug: "+prefix+string(rune('a'+i)), "date: 2025-01-01T00:00:00Z")
	}
	s := build(t, mapFS(files), Options{}, testNow)
	if len(s.problems) > 0 {
		t.Fatal(s.problems)
	}
	pages, tokens := walk(t, s, 1)
	if len(pages) != 5 {
		t.Fatalf("%d pages, want 5", len(pages))
	}
	for i, p := range pages {
		if len(p) != 1 || p[0] != s.posts[i] {
			t.Errorf("page %d = %v", i, slugs(p))
		}
	}
	re := regexp.MustCompile(CursorPattern)
	for _, tok := range tokens {
		if !re.MatchString(tok) {
			t.Errorf("token %q (%d chars) out of pattern", tok, len(tok))
		}
	}
}
