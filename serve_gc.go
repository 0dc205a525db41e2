package main

import (
	"os"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// While it serves, folio's own work allocates nothing; net/http allocates
// 3-4 KB per request (the request, its header maps, the URL, the
// response's header clone), and at the default GOGC the collector runs
// each time that garbage reaches the size of the live heap. At 10,000
// posts the live heap is about 100 MB: at 40,000 requests a second a
// collection starts every second or two and marks the whole snapshot,
// 1.2-1.6 µs of CPU per small request where a bare net/http server's few
// MB cost 0.2 µs (bench/gcmark.sh; BENCHMARKS.md, "Serving at the
// net/http ceiling").
//
// servingHeadroom is the room for garbage serve leaves between
// collections: GOGC is raised so that the heap may grow by this much over
// the live heap before the next collection, but never past
// maxServingGCPercent (never below GOGC as it was, so a large site, whose
// live heap is above it, runs as before). What a collection costs a
// request is the live heap marked over the garbage made between
// collections, so a small site's collector is cheap at a GOGC of a few
// hundred; without that bound a site of a few posts would hold 256 MB (a
// few MB live, and the runtime's least heap goal, 4 MB, grows with GOGC
// too). The price is memory, stated in DEPLOYING.md and measured in
// BENCHMARKS.md: at 10,000 posts about 400 MB resident under load instead
// of 240 MB, for a collector that runs a third as often (0.4 µs per
// request); at most five times the live heap on a site under 64 MB live;
// at 100,000 posts (a live heap of 930 MB) nothing changes. Less room
// costs CPU, more buys little: a collection, not the memory the garbage
// passes through, is what a request pays for (a bare server whose
// garbage cycles through 320 MB costs what it costs with 4 MB). At
// 10,000 posts, 64 MB of room cost 5-9 % more CPU per small request, 16
// MB 30 %; 1 GB saved nothing to see (BENCHMARKS.md, "Session 31").
var servingHeadroom int64 = 256 << 20

// maxServingGCPercent bounds the GOGC serve sets: the heap's goal is at
// most five times the live heap, as during a load (loadGCPercent).
const maxServingGCPercent = loadGCPercent

// keepGCHeadroom sets GOGC after every collection to
// max(GOGC as it was, 100 × headroom ÷ live heap) and returns what stops
// it and puts GOGC back. A user's GOGC or GOMEMLIMIT is left alone, as
// is a headroom of 0. Where the memory the process may use is known (the
// machine's, or its control group's), the headroom is cut so that the
// heap's goal stays under half of it, as tuneGCTo's limit for loads does.
func keepGCHeadroom(headroom int64) (stop func()) {
	if headroom <= 0 || os.Getenv("GOGC") != "" || os.Getenv("GOMEMLIMIT") != "" {
		return func() {}
	}
	k := &gcKeeper{headroom: headroom, budget: memoryBudget(), sample: []metrics.Sample{{Name: "/gc/heap/live:bytes"}}}
	gogc := []metrics.Sample{{Name: "/gc/gogc:percent"}}
	metrics.Read(gogc)
	k.base = int(gogc[0].Value.Uint64())
	k.percent = k.base
	// The first adjustment waits for a collection: the live heap the
	// runtime knows now may be from before the load was finished (or
	// before GOGC was put back, which starts one).
	k.arm()
	return func() {
		k.mu.Lock()
		defer k.mu.Unlock()
		if !k.stopped {
			k.stopped = true
			debug.SetGCPercent(k.base)
		}
	}
}

// gcKeeper is keepGCHeadroom's state; adjust runs once per collection, in
// the runtime's cleanup goroutine.
type gcKeeper struct {
	headroom int64
	budget   int64 // memoryBudget's, 0 when unknown
	base     int   // GOGC before, and the least it is set to

	mu      sync.Mutex
	percent int // GOGC as last set
	sample  []metrics.Sample
	stopped bool
}

// gcSentinel is an object made to be collected: its cleanup runs after
// the collection that found it unreachable, and makes the next one.
type gcSentinel struct{ _ [32]byte }

// arm makes a sentinel whose cleanup adjusts GOGC after the next
// collection and arms again.
func (k *gcKeeper) arm() {
	runtime.AddCleanup(new(gcSentinel), func(k *gcKeeper) {
		if k.adjust() {
			k.arm()
		}
	}, k)
}

// adjust sets GOGC for the live heap the last collection marked, and
// reports whether the keeper still runs. It changes GOGC only when the
// new value differs by more than an eighth, so that a heap that hardly
// moves does not reset the collector's pacing at every cycle.
func (k *gcKeeper) adjust() bool {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.stopped {
		return false
	}
	metrics.Read(k.sample)
	live := int64(k.sample[0].Value.Uint64())
	p := headroomPercent(live, k.headroom, k.budget, k.base)
	if d := p - k.percent; d > k.percent/8 || -d > k.percent/8 {
		k.percent = p
		debug.SetGCPercent(p)
	}
	return true
}

// headroomPercent is the GOGC that lets a heap of live bytes grow by
// headroom before the next collection, or less where that would take the
// heap past half of budget (when known): at least base, at most
// maxServingGCPercent (which a live heap of almost nothing gets).
func headroomPercent(live, headroom, budget int64, base int) int {
	if budget > 0 {
		headroom = min(headroom, budget/2-live)
	}
	if headroom <= 0 {
		return base
	}
	if live <= 0 {
		return max(base, maxServingGCPercent)
	}
	return max(base, int(min(maxServingGCPercent, 100*headroom/live)))
}

// servingGC is keepGCHeadroom for one run of serve: start (load's serving
// hook) begins it, stop (when serve returns) ends it, in either order.
type servingGC struct {
	mu      sync.Mutex
	stopped bool
	end     func()
}

func (g *servingGC) start() {
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.stopped {
		g.end = keepGCHeadroom(servingHeadroom)
	}
}

func (g *servingGC) stop() {
	g.mu.Lock()
	defer g.mu.Unlock()
	g.stopped = true
	if g.end != nil {
		g.end()
	}
}
