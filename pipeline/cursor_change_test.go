package pipeline

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
)

// longSlug is a slug too long for a token to hold whole: its token keeps
// a cut prefix (all 'l's) and a hash, shared in part with its siblings.
func longSlug(suffix string) string { return strings.Repeat("l", 300) + suffix }

// changeCase is a walk over posts (slug -> publish date) cut by a change
// after its first page.
type changeCase struct {
	name    string
	posts   map[string]string
	size    int
	page1   []string
	remove  []string
	add     map[string]string
	updates int      // further unrelated snapshots before page 2
	rest    []string // the posts of every page after the first
}

const (
	day1 = "2025-01-01T00:00:00Z"
	day2 = "2025-01-02T00:00:00Z"
	day3 = "2025-01-03T00:00:00Z"
)

// TestCursorLongSlugsUnderChange: within one process, a token whose slug
// was cut still names its exact position once its post is gone, so no
// post that stayed is skipped or repeated.
func TestCursorLongSlugsUnderChange(t *testing.T) {
	la, lab, lb, lbb, lc := longSlug("a"), longSlug("ab"), longSlug("b"), longSlug("bb"), longSlug("c")
	for _, tc := range []changeCase{{
		name:  "the named post gone, its sibling on page 1",
		posts: map[string]string{la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb},
		rest: []string{"old"},
	}, {
		name:  "the named post gone, its sibling not yet seen",
		posts: map[string]string{"new": day3, la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{"new", la}, remove: []string{la},
		rest: []string{lb, "old"},
	}, {
		name:  "a sibling added after the named post",
		posts: map[string]string{la: day2, lc: day2, "old": day1},
		size:  1, page1: []string{la}, add: map[string]string{lb: day2},
		rest: []string{lb, lc, "old"},
	}, {
		name:  "the named post gone, siblings added on both sides",
		posts: map[string]string{la: day2, lb: day2, lc: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb}, add: map[string]string{lab: day2, lbb: day2},
		rest: []string{lbb, lc, "old"},
	}, {
		name:  "the named post gone, a short slug equal to the cut prefix",
		posts: map[string]string{strings.Repeat("l", 79): day2, la: day2, lb: day2, "old": day1},
		size:  3, page1: []string{strings.Repeat("l", 79), la, lb}, remove: []string{lb},
		rest: []string{"old"},
	}, {
		name:  "the named post gone two snapshots before page 2",
		posts: map[string]string{la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb}, updates: 2,
		rest: []string{"old", "older-0", "older-1"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, s, next := firstPage(t, tc)
			s = changeSite(t, fsys, s, tc)
			if got := walkFrom(t, s, next, tc.size, (*Snapshot).Page); !slices.Equal(got, tc.rest) {
				t.Errorf("after page 1: %v, want %v", short(got), short(tc.rest))
			}
		})
	}
}

// firstPage builds tc's site and checks its first page, returning the
// files, the snapshot and the token for page 2.
func firstPage(t *testing.T, tc changeCase) (fstest.MapFS, *Snapshot, string) {
	t.Helper()
	fsys := fstest.MapFS{}
	for slug, d := range tc.posts {
		set(fsys, postFile(slug), post("slug: "+slug, "date: "+d))
	}
	s := build(t, fsys, Options{}, testNow)
	if len(s.problems) > 0 {
		t.Fatal(s.problems)
	}
	items, next, err := s.Page(FirstCursor, tc.size)
	if err != nil || !slices.Equal(slugs(items), tc.page1) || next == "" {
		t.Fatalf("page 1 = %v, %q, %v; want %v and a next page", short(slugs(items)), next, err, short(tc.page1))
	}
	return fsys, s, next
}

// changeSite removes and adds tc's posts, then makes tc.updates more
// snapshots, each adding an unrelated post older than all the others.
func changeSite(t *testing.T, fsys fstest.MapFS, s *Snapshot, tc changeCase) *Snapshot {
	t.Helper()
	var changed []string
	for _, slug := range tc.remove {
		delete(fsys, postFile(slug))
		changed = append(changed, postFile(slug))
	}
	for slug, d := range tc.add {
		set(fsys, postFile(slug), post("slug: "+slug, "date: "+d))
		changed = append(changed, postFile(slug))
	}
	for i := 0; ; i++ {
		next, err := s.Update(changed, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if s = next; i == tc.updates {
			return s
		}
		slug := fmt.Sprintf("older-%d", i)
		set(fsys, postFile(slug), post("slug: "+slug, "date: 2024-01-0"+fmt.Sprint(2-i)+"T00:00:00Z"))
		changed = []string{postFile(slug)}
	}
}

// walkFrom follows nextCursor from tok with page and returns the slugs of
// every page.
func walkFrom(t *testing.T, s *Snapshot, tok string, size int, page func(*Snapshot, string, int) ([]*Post, string, error)) []string {
	t.Helper()
	var out []string
	for range len(s.posts) + 2 {
		items, next, err := page(s, tok, size)
		if err != nil {
			t.Fatalf("Page(%q): %v", tok, err)
		}
		out = append(out, slugs(items)...)
		if next == "" {
			return out
		}
		tok = next
	}
	t.Fatal("the walk does not end")
	return nil
}

// postFile is the file of a post: its slug is too long for a file name.
func postFile(slug string) string {
	return fmt.Sprintf("blog/%x.md", slugHash(slug))
}

// short writes long slugs as l×300 and their suffix, for readable failures.
func short(slugs []string) []string {
	out := make([]string, len(slugs))
	for i, s := range slugs {
		out[i] = strings.Replace(s, strings.Repeat("l", 300), "l×300+", 1)
	}
	return out
}

// TestCursorLongSlugsAfterRestart: a process that did not issue a cut
// token (a restart, or a token from a static build) finds its post by the
// hash while it exists; once it is gone and posts share its date and cut
// prefix, the page starts at the first of them, repeating the ones that
// sorted before it and skipping none (cursor.go says why).
func TestCursorLongSlugsAfterRestart(t *testing.T) {
	la, lab, lb, lbb, lc := longSlug("a"), longSlug("ab"), longSlug("b"), longSlug("bb"), longSlug("c")
	for _, tc := range []changeCase{{
		name:  "the named post gone, its sibling on page 1 (repeated)",
		posts: map[string]string{la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb},
		rest: []string{la, "old"},
	}, {
		name:  "the named post gone, its sibling not yet seen",
		posts: map[string]string{"new": day3, la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{"new", la}, remove: []string{la},
		rest: []string{lb, "old"},
	}, {
		name:  "the named post kept, a sibling added after it",
		posts: map[string]string{la: day2, lc: day2, "old": day1},
		size:  1, page1: []string{la}, add: map[string]string{lb: day2},
		rest: []string{lb, lc, "old"},
	}, {
		name:  "the named post gone, siblings added on both sides",
		posts: map[string]string{la: day2, lb: day2, lc: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb}, add: map[string]string{lab: day2, lbb: day2},
		rest: []string{la, lab, lbb, lc, "old"},
	}, {
		name:  "the named post gone, no post shares its prefix",
		posts: map[string]string{la: day2, "m": day2, "old": day1},
		size:  1, page1: []string{la}, remove: []string{la},
		rest: []string{"m", "old"},
	}} {
		t.Run(tc.name, func(t *testing.T) {
			fsys, s, next := firstPage(t, tc)
			s = changeSite(t, fsys, s, tc)
			restarted := &cursorMemory{}
			page := func(s *Snapshot, tok string, size int) ([]*Post, string, error) {
				return s.page(tok, size, restarted)
			}
			if got := walkFrom(t, s, next, tc.size, page); !slices.Equal(got, tc.rest) {
				t.Errorf("after page 1: %v, want %v", short(got), short(tc.rest))
			}
		})
	}
}

// TestCursorMemoryCollision: of two slugs behind one token, the memory
// keeps the one that sorts first, whatever the order they come in, so a
// collision can repeat posts but not skip them.
func TestCursorMemoryCollision(t *testing.T) {
	for _, order := range [][]string{{"b", "a", "c"}, {"a", "b"}, {"c", "b", "a"}} {
		var m cursorMemory
		for _, slug := range order {
			m.remember("tok", slug)
		}
		if got, ok := m.recall("tok"); !ok || got != "a" {
			t.Errorf("after %v: recall = %q, %v; want a", order, got, ok)
		}
	}
	if got, ok := new(cursorMemory).recall("tok"); ok {
		t.Errorf("an empty memory recalls %q", got)
	}
}

// TestCursorMemoryConcurrent walks two snapshots at once from many
// goroutines, as requests do while the server swaps snapshots; run with
// -race. Every walk after the named post's removal is exact.
func TestCursorMemoryConcurrent(t *testing.T) {
	la, lb := longSlug("a"), longSlug("b")
	tc := changeCase{
		posts: map[string]string{la: day2, lb: day2, "old": day1},
		size:  2, page1: []string{la, lb}, remove: []string{lb},
	}
	fsys, before, _ := firstPage(t, tc)
	after := changeSite(t, fsys, before, tc)
	var mem cursorMemory
	var wg sync.WaitGroup
	got := make([][]string, 8)
	for g := range got {
		wg.Go(func() {
			items, next, err := before.page(FirstCursor, 2, &mem)
			if err != nil {
				return
			}
			items, _, _ = after.page(next, 2, &mem)
			got[g] = slugs(items)
		})
	}
	wg.Wait()
	for g, rest := range got {
		if !slices.Equal(rest, []string{"old"}) {
			t.Errorf("walk %d: after page 1: %v, want [old]", g, short(rest))
		}
	}
}
