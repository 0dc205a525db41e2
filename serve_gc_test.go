package main

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

func TestHeadroomPercent(t *testing.T) {
	const mb = 1 << 20
	for _, tc := range []struct {
		name                   string
		live, headroom, budget int64
		base, want             int
	}{
		{"a small site: room for the headroom", 100 * mb, 256 * mb, 0, 100, 256},
		{"a large site: the default's room is more", 1000 * mb, 256 * mb, 0, 100, 100},
		{"a user's base is the least", 100 * mb, 256 * mb, 0, 300, 300},
		{"a smaller site: at most the bound", 20 * mb, 256 * mb, 0, 100, maxServingGCPercent},
		{"a live heap of almost nothing", 1, 256 * mb, 0, 100, maxServingGCPercent},
		{"no live heap yet", 0, 256 * mb, 0, 100, maxServingGCPercent},
		{"a user's base above the bound", 1 * mb, 256 * mb, 0, 800, 800},
		{"the budget cuts the headroom", 100 * mb, 256 * mb, 400 * mb, 100, 100},
		{"the budget cuts it partly", 100 * mb, 256 * mb, 500 * mb, 100, 150},
		{"a live heap past half the budget", 300 * mb, 256 * mb, 500 * mb, 100, 100},
		{"the budget is plenty", 100 * mb, 256 * mb, 16 << 30, 100, 256},
	} {
		if got := headroomPercent(tc.live, tc.headroom, tc.budget, tc.base); got != tc.want {
			t.Errorf("%s: headroomPercent(%d, %d, %d, %d) = %d, want %d", tc.name, tc.live, tc.headroom, tc.budget, tc.base, got, tc.want)
		}
	}
}

// TestHeadroomHeapGoal: the heap goal the runtime makes of
// headroomPercent's GOGC for this test's small live heap (Go's least goal,
// 4 MB, grows with GOGC) stays within half the budget and within five
// times the live heap.
func TestHeadroomHeapGoal(t *testing.T) {
	const mb = 1 << 20
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	runtime.GC()
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/gc/heap/goal:bytes"}}
	metrics.Read(s)
	live := int64(s[0].Value.Uint64())
	for _, budget := range []int64{0, 64 * mb, 256 * mb, 512 * mb, 16 << 30} {
		p := headroomPercent(live, servingHeadroom, budget, 100)
		debug.SetGCPercent(p)
		runtime.GC()
		metrics.Read(s)
		goal := int64(s[1].Value.Uint64())
		if budget > 0 && goal > budget/2 {
			t.Errorf("budget %d MB: GOGC %d makes a heap goal of %d MB, past half the budget", budget/mb, p, goal/mb)
		}
		if most := max(int64(maxServingGCPercent+100)*live/100, 4*mb*maxServingGCPercent/100) + mb; goal > most {
			t.Errorf("budget %d MB, live %d KB: GOGC %d makes a heap goal of %d MB, want at most %d MB", budget/mb, live>>10, p, goal/mb, most/mb)
		}
	}
}

// TestKeepGCHeadroom: after a collection, GOGC leaves the headroom over
// the live heap (this test's is a few MB, so GOGC rises well above 100);
// stopping puts it back; a user's GOGC or GOMEMLIMIT is theirs.
func TestKeepGCHeadroom(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	// Another test's load puts its GOGC back loadGCGrace after it (to
	// 400, when it began during another's): wait for that, or it would
	// change GOGC in the middle of this test.
	loadsTuning.Wait()
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	base := gcPercent()
	stop := keepGCHeadroom(64 << 20)
	risen := false
	for deadline := time.Now().Add(10 * time.Second); !risen && time.Now().Before(deadline); {
		runtime.GC() // the cleanup that adjusts runs after a collection
		time.Sleep(time.Millisecond)
		risen = gcPercent() > base
	}
	if !risen {
		t.Errorf("GOGC stayed %d after collections, want it raised for the headroom", gcPercent())
	}
	stop()
	if got := gcPercent(); got != base {
		t.Errorf("GOGC %d after stop, want %d as before", got, base)
	}
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got := gcPercent(); got != base {
		t.Errorf("GOGC %d after a collection once stopped, want %d", got, base)
	}

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "150")
			stop := keepGCHeadroom(64 << 20)
			defer stop()
			for range 3 {
				runtime.GC()
				time.Sleep(time.Millisecond)
			}
			if got := gcPercent(); got != base {
				t.Errorf("with %s set, GOGC %d while serving, want %d as it was", env, got, base)
			}
		})
	}
}

// TestLoadThenServing: load's serving hook runs once the load's GOGC is
// put back, so the headroom is reckoned from the default's.
func TestLoadThenServing(t *testing.T) {
	defer func(d time.Duration) { loadGCGrace = d }(loadGCGrace)
	loadGCGrace = 0
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	base := gcPercent()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n"})
	o := &options{command: "serve", source: dir}
	spec := o.spec().ForServe(false)
	spec.Addr = addrString("127.0.0.1:8080")
	during := make(chan int, 1)
	h, err := load(context.Background(), spec, stdio{out: io.Discard, err: io.Discard, log: slog.New(slog.DiscardHandler)},
		func() { during <- gcPercent() })
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	select {
	case got := <-during:
		if got != base {
			t.Errorf("serving began at GOGC %d, want %d (the load's put back)", got, base)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the serving hook never ran")
	}
}
