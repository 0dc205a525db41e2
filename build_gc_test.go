package main

import (
	"context"
	"io"
	"log/slog"
	"path/filepath"
	"runtime/debug"
	"testing"
	"time"
)

// gcPercent reads GOGC as the runtime has it.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestTuneGC: a build runs the collector at buildGCPercent, with a soft
// limit at half the memory the process may use, and puts both back when
// it ends; a user's GOGC or GOMEMLIMIT is theirs.
func TestTuneGC(t *testing.T) {
	t.Setenv("GOGC", "")
	t.Setenv("GOMEMLIMIT", "")
	percent, limit := gcPercent(), debug.SetMemoryLimit(-1)
	restore := tuneGC()
	if got := gcPercent(); got != buildGCPercent {
		t.Errorf("GOGC during a build = %d, want %d", got, buildGCPercent)
	}
	if budget := memoryBudget(); budget > 0 {
		if got := debug.SetMemoryLimit(-1); got != min(budget/2, limit) {
			t.Errorf("memory limit during a build = %d, want %d (half of %d)", got, budget/2, budget)
		}
	}
	restore()
	if got, gotLimit := gcPercent(), debug.SetMemoryLimit(-1); got != percent || gotLimit != limit {
		t.Errorf("after the build: GOGC %d, limit %d; want %d and %d as before", got, gotLimit, percent, limit)
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
