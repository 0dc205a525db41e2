package pipeline

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"
)

// TestSortPages: Hugo's default order of pages: weight ascending with
// unweighted pages last, then date newest first, then link title without
// regard to case, then path; pages equal in all of these keep the order
// they came in.
func TestSortPages(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 1, d, 0, 0, 0, 0, time.UTC) }
	page := func(path, title, linkTitle string, weight int, date time.Time) *Page {
		return &Page{Path: path, Title: title, Post: &Post{PageMeta: &PageMeta{Weight: weight, Created: date, LinkTitle: linkTitle}}}
	}
	dup1 := page("/same/", "Same", "", 0, day(1))
	dup2 := page("/same/", "Same", "", 0, day(1))
	in := []*Page{
		page("/a/", "A", "", 0, day(1)),
		dup1,
		page("/w2/", "W2", "", 2, day(1)),
		page("/new/", "New", "", 0, day(9)),
		{Path: "/section/", Title: "Section"}, // no content: weight 0, zero date
		page("/b-upper/", "b", "B upper", 0, day(1)),
		page("/w1-old/", "W1 old", "", 1, day(1)),
		page("/w1-new/", "W1 new", "", 1, day(5)),
		dup2,
		page("/a2/", "A", "", 0, day(1)),
		page("/neg/", "Neg", "", -3, day(1)),
	}
	sortPages(in)
	var got []string
	for _, p := range in {
		got = append(got, p.Path)
	}
	want := []string{"/neg/", "/w1-new/", "/w1-old/", "/w2/", "/new/", "/a/", "/a2/", "/b-upper/", "/same/", "/same/", "/section/"}
	if !slices.Equal(got, want) {
		t.Errorf("order\n got %v\nwant %v", got, want)
	}
	if i := slices.Index(in, dup1); i < 0 || in[i+1] != dup2 {
		t.Error("two pages equal in every key changed places")
	}
}

// TestSortPagesStable: on many pages with few distinct weights, dates and
// titles (so most keys tie), sortPages gives the order of a stable sort by
// comparePages, the order it is searched in (sitepatch).
func TestSortPagesStable(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pages := make([]*Page, 5000)
	for i := range pages {
		pages[i] = &Page{
			Path:  fmt.Sprintf("/p/%d/", rng.IntN(2000)), // duplicates too
			Title: []string{"alpha", "Alpha", "beta", "BETA", "gamma"}[rng.IntN(5)],
			Post:  &Post{PageMeta: &PageMeta{Weight: rng.IntN(3), Created: time.Date(2026, 1, 1+rng.IntN(4), 0, 0, 0, 0, time.UTC)}},
		}
		if rng.IntN(10) == 0 {
			pages[i].Post = nil
		}
	}
	want := slices.Clone(pages)
	slices.SortStableFunc(want, comparePages)
	sortPages(pages)
	for i := range pages {
		if pages[i] != want[i] {
			t.Fatalf("at %d: %s, want %s", i, pages[i].Path, want[i].Path)
		}
	}
}

// BenchmarkSortPages sorts a section of 100,000 posts of distinct dates,
// in file order.
//
//	go test ./pipeline -run '^$' -bench SortPages
func BenchmarkSortPages(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	pages := make([]*Page, 100_000)
	for i := range pages {
		pages[i] = &Page{Path: fmt.Sprintf("/blog/post-%06d/", i), Title: "T",
			Post: &Post{PageMeta: &PageMeta{Created: time.Unix(rng.Int64N(1<<31), 0)}}}
	}
	work := make([]*Page, len(pages))
	for b.Loop() {
		copy(work, pages)
		sortPages(work)
	}
}
