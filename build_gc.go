package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"sync"
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
	soft := limit
	if budget := memoryBudget(); budget > 0 && budget/2 < soft {
		soft = budget / 2
	}
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

// buildHeapFloor is the heap a build reaches before it first collects.
const buildHeapFloor = 384 << 20

// tuneGCTo is tuneGC at another GOGC (serve and dev load at
// loadGCPercent).
func tuneGCTo(gcPercent int) (restore func()) {
	if os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	percent := debug.SetGCPercent(gcPercent)
	limit := debug.SetMemoryLimit(-1)
	if budget := memoryBudget(); budget > 0 && budget/2 < limit {
		debug.SetMemoryLimit(budget / 2)
	}
	return func() {
		debug.SetGCPercent(percent)
		debug.SetMemoryLimit(limit)
	}
}
