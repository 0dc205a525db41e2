package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"

	"folio/export"
)

// buildGCPercent is the garbage collector's GOGC during folio build: a
// build allocates about ten times its live heap (2.8 GB at 10,000 posts
// with tags and categories, for some 200 MB live), so the collector runs
// dozens of times, and each run marks the whole snapshot again. At 200 it
// runs half as often. Measured on that site, interleaved with builds at
// the default, three each at load 10-12: 15.8-17.6 s of CPU against
// 17.9-19.6 s; peak RSS 670-740 MB against 470-510 MB (Hugo's build of
// the same site peaks at 1,150 MB). 300 saved no more CPU and took
// 820-870 MB.
const buildGCPercent = 200

// tuneGC sets the collector for a build and returns what puts it back
// (tests run many builds in one process). A user's GOGC or GOMEMLIMIT is
// left alone. Where the memory the process may use is known, a soft limit
// at half of it makes the collector run more often as the heap nears it,
// rather than let the higher GOGC grow a large site's heap where the
// default would not have.
//
// And a build does not collect at all until its heap first reaches
// buildHeapFloor (nor the soft limit, when that is less): a build over
// its previous output allocates about 250 MB at 10,000 posts, so it then
// never collects (the collector's cycles were some 0.1 s of its 0.8 s of
// CPU, each marking the site model and the previous record); any build
// larger goes on at buildGCPercent from that first collection.
func tuneGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(-1)
	limit := debug.SetMemoryLimit(-1)
	soft := softLimit(limit)
	debug.SetMemoryLimit(min(buildHeapFloor, soft))
	// Once a collection has run, the object below is gone, and the
	// collector is set as for any build; once the build is over, as it
	// was. Whichever comes first, the other does nothing.
	var once sync.Once
	runtime.AddCleanup(new([64]byte), func(struct{}) {
		once.Do(func() {
			debug.SetGCPercent(buildGCPercent)
			debug.SetMemoryLimit(soft)
		})
	}, struct{}{})
	return func() {
		once.Do(func() {})
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// softLimit is the soft memory limit a build or a load sets: half the
// memory the process may use (the machine's or its control group's),
// or limit, the one set before, when that is less or the memory is
// not known.
func softLimit(limit int64) int64 {
	if budget := memoryBudget(); budget > 0 && budget/2 < limit {
		return budget / 2
	}
	return limit
}

// buildHeapFloor is the heap a build reaches before it first collects.
const buildHeapFloor = 384 << 20

// coldBudget is the memory a cold build keeps to (a soft limit), while
// its live heap is at most coldLive. A cold build (no previous record
// beside the output) renders and writes every route: at 10,000 posts it
// allocates some 2 GB for a live heap of 130-160 MB, so that at
// buildGCPercent its heap grows to three times that, 550-770 MB of
// memory. Under the limit it collects when the process reaches it,
// several times as often. A site whose live heap is past coldLive is
// built as before: the limit would leave too little room between
// collections.
const coldBudget = 256 << 20

var coldLive uint64 = coldBudget * 5 / 8 // a variable for tests

const coldPast = 4

// tuneColdGC is tuneGC for a cold build: the collector at buildGCPercent
// from the start, under a soft limit of coldBudget while the live heap
// (read after each collection) is at most coldLive, after that (in
// coldPast collections in a row) under the soft limit at half the memory
// the process may use. A user's GOGC or
// GOMEMLIMIT is left alone; it puts both back once the build ends.
func tuneColdGC() (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(buildGCPercent)
	limit := debug.SetMemoryLimit(-1)
	soft := softLimit(limit)
	if soft <= coldBudget {
		debug.SetMemoryLimit(soft)
		return func() {
			debug.SetGCPercent(percent)
			debug.SetMemoryLimit(limit)
		}
	}
	debug.SetMemoryLimit(coldBudget)
	var (
		mu   sync.Mutex
		done bool
		live = []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
		past int // collections in a row that found the live heap past coldLive
	)
	// After each collection (the object below is gone), the live heap
	// is read: past coldLive in coldPast collections in a row, the
	// limit goes up to soft, for good. (What a collection finds live
	// includes what was allocated while it marked: on a busy machine,
	// where marking takes long, one collection finds 20-30 MB more
	// than the next.)
	var watch func()
	watch = func() {
		runtime.AddCleanup(new([64]byte), func(struct{}) {
			mu.Lock()
			defer mu.Unlock()
			if done {
				return
			}
			metrics.Read(live)
			if live[0].Value.Kind() == metrics.KindUint64 && live[0].Value.Uint64() > coldLive {
				past++
			} else {
				past = 0
			}
			if past >= coldPast {
				debug.SetMemoryLimit(soft)
				done = true
				return
			}
			watch()
		}, struct{}{})
	}
	watch()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		done = true
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}

// tuneBuild tunes the collector for a build into out: tuneGC over a
// previous export (its record beside out), tuneColdGC for a cold one.
// A variable for tests.
var tuneBuild = func(out string) (restore func()) {
	if export.Recorded(out) {
		return tuneGC()
	}
	return tuneColdGC()
}

// tuneGCTo is tuneGC at another GOGC (serve and dev load at
// loadGCPercent).
func tuneGCTo(gcPercent int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(gcPercent)
	limit := debug.SetMemoryLimit(-1)
	debug.SetMemoryLimit(softLimit(limit))
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
