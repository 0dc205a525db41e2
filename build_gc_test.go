package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"testing"
	"time"
)

// gcPercent reads GOGC as the runtime has it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGC: a build does not collect until its heap reaches
// buildHeapFloor (or the soft limit, at half the memory the process may
// use, when less); from its first collection on it runs the collector at
// buildGCPercent under that soft limit; it puts both back when it ends,
// and a collection after that changes nothing. A user's GOGC or
// GOMEMLIMIT is theirs.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcPercent(), debug.SetMemoryLimit(-1)
	soft := limit
	if budget := memoryBudget(); budget > 0 {
		soft = min(budget/2, limit)
	}
	restore := tuneGC()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != -1 || gotLimit != min(buildHeapFloor, soft) {
		t.Errorf("before a build's first collection: GOGC %d, limit %d; want off and %d", got, gotLimit, min(buildHeapFloor, soft))
	}
	runtime.GC()
	settled := func() bool { return gcPercent() == buildGCPercent && debug.SetMemoryLimit(-1) == soft }
	for deadline := time.Now().Add(10 * time.Second); !settled() && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != buildGCPercent || gotLimit != soft {
		t.Errorf("after a build's first collection: GOGC %d, limit %d; want %d and %d", got, gotLimit, buildGCPercent, soft)
	}
	restore()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
		t.Errorf("after the build: GOGC %d, limit %d; want %d and %d as before", got, gotLimit, percent, limit)
	}

	// Put back before any collection: the collection after it changes
	// nothing.
	restore = tuneGC()
	restore()
	runtime.GC()
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
		t.Errorf("a collection after the build: GOGC %d, limit %d; want %d and %d as before", got, gotLimit, percent, limit)
	}

	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		t.Run(env, func(t *testing.T) {
			t.Setenv(env, "150")
			restore := tuneGC()
			defer restore()
			if got := gcPercent(); got != percent {
				t.Errorf("with %s set, GOGC during a build = %d, want %d as it was", env, got, percent)
			}
		})
	}
}

// TestLoadPutsGCBack: serve and dev load the site at loadGCPercent, with
// a parse cache or without, and put GOGC back once it is loaded (and
// loadGCGrace has passed).
func TestLoadPutsGCBack(t *testing.T) {
	defer func(d time.Duration) { loadGCGrace = d }(loadGCGrace)
	loadGCGrace = 0
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcPercent(), debug.SetMemoryLimit(-1)
	restore := tuneLoadGC()
	if during := gcPercent(); during != loadGCPercent {
		t.Errorf("GOGC %d during a load, want %d", during, loadGCPercent)
	}
	restore()
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"content/blog/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\n"})
	cache := filepath.Join(t.TempDir(), "serve.folio-cache")
	for _, tc := range []struct {
		name  string
		cache string // "" for none
	}{
		{"no cache", ""},
		{"no cache file yet", cache},
		{"a cache file", cache},
	} {
		if tc.name == "a cache file" {
			writeTree(t, filepath.Dir(cache), map[string]string{filepath.Base(cache): "a cache, or not"})
		}
		o := &options{command: "serve", source: dir}
		spec := o.spec().ForServe(false)
		spec.Addr, spec.Cache = addrString("127.0.0.1:8080"), tc.cache
		h, err := load(context.Background(), spec, stdio{out: io.Discard, err: io.Discard, log: slog.New(slog.DiscardHandler)}, nil)
		if err != nil {
			t.Fatal(err)
		}
		h.Close()
		// loadGCGrace, 0 here, is a timer: wait for it to have fired.
		for deadline := time.Now().Add(10 * time.Second); gcPercent() != percent && time.Now().Before(deadline); {
			time.Sleep(time.Millisecond)
		}
		if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
			t.Errorf("%s: after the load, GOGC %d and limit %d; want %d and %d as before", tc.name, got, gotLimit, percent, limit)
		}
	}
}

// TestTuneColdGC: a cold build runs the collector at buildGCPercent
// under a soft limit of coldBudget; once coldPast collections in a row
// find the live heap past coldLive, under the soft limit at half the
// process's memory instead; both are put back when it ends. A user's GOGC or GOMEMLIMIT
// is theirs.
func TestTuneColdGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcPercent(), debug.SetMemoryLimit(-1)
	soft := limit
	if budget := memoryBudget(); budget > 0 {
		soft = min(budget/2, limit)
	}
	if soft <= coldBudget {
		t.Skipf("the process may use %d bytes: a cold build's limit is that", soft)
	}
	runtime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	defer func(n uint64) { coldLive = n }(coldLive)
	coldLive = live[0].Value.Uint64() + 8<<20
	restore := tuneColdGC()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != buildGCPercent || gotLimit != coldBudget {
		t.Errorf("a cold build: GOGC %d, limit %d; want %d and %d", got, gotLimit, buildGCPercent, coldBudget)
	}
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if gotLimit := debug.SetMemoryLimit(-1); gotLimit != coldBudget {
		t.Errorf("a collection finding the live heap under coldLive: limit %d, want %d", gotLimit, coldBudget)
	}
	held := make([]byte, 16<<20)
	runtime.GC()
	time.Sleep(10 * time.Millisecond)
	if gotLimit := debug.SetMemoryLimit(-1); gotLimit != coldBudget {
		t.Errorf("one collection finding the live heap past coldLive: limit %d, want %d still", gotLimit, coldBudget)
	}
	for deadline := time.Now().Add(10 * time.Second); debug.SetMemoryLimit(-1) != soft && time.Now().Before(deadline); {
		runtime.GC()
		time.Sleep(time.Millisecond)
	}
	if gotLimit := debug.SetMemoryLimit(-1); gotLimit != soft {
		t.Errorf("a live heap past coldLive: limit %d, want %d", gotLimit, soft)
	}
	runtime.KeepAlive(held)
	restore()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
		t.Errorf("after the build: GOGC %d, limit %d; want %d and %d as before", got, gotLimit, percent, limit)
	}
	t.Setenv("GOMEMLIMIT", "1GiB")
	restore = tuneColdGC()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
		t.Errorf("with GOMEMLIMIT set: GOGC %d, limit %d; want %d and %d as they were", got, gotLimit, percent, limit)
	}
	restore()
}
