package main

import (
	"os"
	"runtime/debug"
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
func tuneGC() (restore func()) { return tuneGCTo(buildGCPercent) }

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
