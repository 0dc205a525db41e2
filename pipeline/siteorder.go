package pipeline

import (
	"cmp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// The site model of a large site is made on every core (the model of
// 100,000 pages took 0.7 s of one core, while serve's first start waited
// for it with the other idle): the regular pages of a language are made
// in parallel, the order every list takes its pages in is sorted once,
// in halves on two cores, and the section lists and the terms are made
// beside each other. Each part writes its own pages, so the model is the
// one a single core makes, in the same order (TestSiteModelParallel).

// parallelMin is the fewest items worth splitting across goroutines. (A
// variable for tests.)
var parallelMin = 4096

// inParallel calls f over [0, n) in consecutive chunks, one per core,
// when n is large enough to be worth it; else f(0, n) alone.
func inParallel(n int, f func(lo, hi int)) {
	workers := min(runtime.GOMAXPROCS(0), n/parallelMin)
	if workers < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		lo, hi := n*w/workers, n*(w+1)/workers
		wg.Go(func() { f(lo, hi) })
	}
	wg.Wait()
}

// A pageOrder is Hugo's default order of the pages a language's lists
// list: its regular pages and its home and section pages that have a
// content file (which terms list). Every list is a part of all, and its
// pages, sorted as sortPages sorts them (ties kept in the list's order,
// which is file order), are in sorted's order: so the lists are made by
// taking their pages from sorted, or by sorting their ranks, instead of
// sorting each (a site of 100,000 posts sorted its home page, its
// section and its terms, 300,000 pages, each time).
type pageOrder struct {
	all    []*Page // by file
	sorted []*Page // all in Hugo's order, ties by file
	rank   []int32 // rank[i] is where all[i] is in sorted
}

// newPageOrder orders the regular pages (in file order, as the
// snapshot's visible posts are) and the section pages given.
func newPageOrder(regular []*Page, sections []*Page) *pageOrder {
	byFile := func(a, b *Page) int { return strings.Compare(a.Post.File, b.Post.File) }
	if !slices.IsSortedFunc(regular, byFile) {
		regular = slices.Clone(regular)
		slices.SortFunc(regular, byFile)
	}
	slices.SortFunc(sections, byFile)
	o := &pageOrder{all: mergeSorted(regular, sections, byFile)}
	keys := make([]pageKey, len(o.all))
	for i, p := range o.all {
		keys[i] = keyOf(p, i)
	}
	keys = sortPageKeys(keys)
	o.sorted = make([]*Page, len(keys))
	o.rank = make([]int32, len(keys))
	for j, k := range keys {
		o.sorted[j] = k.page
		o.rank[k.at] = int32(j)
	}
	return o
}

// mergeSorted merges a and b, each sorted by compare, into a new slice,
// a's first of equal ones.
func mergeSorted[T any](a, b []T, compare func(x, y T) int) []T {
	out := make([]T, 0, len(a)+len(b))
	for len(a) > 0 && len(b) > 0 {
		if compare(b[0], a[0]) < 0 {
			out, b = append(out, b[0]), b[1:]
		} else {
			out, a = append(out, a[0]), a[1:]
		}
	}
	out = append(out, a...)
	return append(out, b...)
}

// A pageKey is a page with its sort keys beside it (sortPages) and its
// place in the order it came in (at).
type pageKey struct {
	weight int
	date   time.Time
	at     int
	page   *Page
}

func keyOf(p *Page, at int) pageKey { return pageKey{pageWeight(p), pageDate(p), at, p} }

// comparePageKeys is Hugo's default order (comparePages), then the
// order the pages came in: a total order.
func comparePageKeys(a, b pageKey) int {
	if c := compareWeights(a.weight, b.weight); c != 0 {
		return c
	}
	if c := b.date.Compare(a.date); c != 0 {
		return c
	}
	if c := compareTitlePath(a.page, b.page); c != 0 {
		return c
	}
	return cmp.Compare(a.at, b.at)
}

// sortPageKeys sorts keys by comparePageKeys: a large slice in two halves
// on two cores, then merged (the order is total, so the result is the
// one sort's).
func sortPageKeys(keys []pageKey) []pageKey {
	if len(keys) < 2*parallelMin || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(keys, comparePageKeys)
		return keys
	}
	half := len(keys) / 2
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(keys[:half], comparePageKeys) })
	slices.SortFunc(keys[half:], comparePageKeys)
	wg.Wait()
	return mergeSorted(keys[:half], keys[half:], comparePageKeys)
}

// pagesOfRanks are the pages of the ranks given (of o.sorted), in order.
func (o *pageOrder) pagesOfRanks(ranks []int32) []*Page {
	slices.Sort(ranks)
	out := make([]*Page, len(ranks))
	for i, r := range ranks {
		out[i] = o.sorted[r]
	}
	return out
}
