package watch

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"folio/internal/syncbuf"
)

// The tests end each burst themselves (Options.SyncDir): they make their
// changes, then create a file in the Watcher's sync folder, and every
// change made before it is in the burst, which is delivered at once. So
// "exactly one delivery" and "no delivery" are decided by the order of
// the changes, never by how long the test took to make them on a busy
// machine. How bursts end by themselves (Quiet, its growth, MaxDelay) is
// TestDeadline's, with explicit times, and TestQuietEndsBurst's, with the
// real clock; the defaults are measured, not asserted, by
// BenchmarkSaveToBatch and BenchmarkGitCheckout. Waits are generous: the
// machine may be busy, and nothing here asserts speed.
const (
	testQuiet = 40 * time.Millisecond
	waitBatch = 30 * time.Second
)

// syncs numbers the files the tests create in sync folders.
var syncs atomic.Int64

// syncW ends w's burst in progress and reports whether a delivery waits
// (Options.SyncDir).
func syncW(t *testing.T, w *Watcher) bool {
	t.Helper()
	must(t, os.WriteFile(filepath.Join(w.opts.SyncDir, fmt.Sprint("s", syncs.Add(1))), nil, 0o644))
	select {
	case waiting := <-w.opts.Synced:
		return waiting
	case <-time.After(waitBatch):
		t.Fatalf("the Watcher did not see its sync file within %v", waitBatch)
	}
	return false
}

// start watches roots with opts (a test logger unless set) and closes the
// Watcher when the test ends.
func start(t *testing.T, opts Options, roots ...string) (*Watcher, *syncbuf.Buffer) {
	t.Helper()
	logs := &syncbuf.Buffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	if opts.SyncDir == "" {
		opts.SyncDir, opts.Synced = t.TempDir(), make(chan bool)
	}
	w, err := New(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, logs
}

// next ends the burst in progress and takes its delivery.
func next(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	if !syncW(t, w) {
		t.Fatal("no delivery: the changes were not seen")
	}
	return receive(t, w)
}

// receive takes the delivery w offers.
func receive(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	select {
	case got, ok := <-w.Batches():
		if !ok {
			t.Fatal("Batches closed")
		}
		return got
	case <-time.After(waitBatch):
		t.Fatalf("no batch within %v", waitBatch)
	}
	return nil
}

// none asserts that nothing changed since the last delivery: ending the
// burst delivers nothing.
func none(t *testing.T, w *Watcher) {
	t.Helper()
	if syncW(t, w) {
		t.Fatalf("unexpected delivery %s", show(receive(t, w)))
	}
}

// rescanned takes the next delivery and asserts it rescans root.
func rescanned(t *testing.T, w *Watcher, root string) {
	t.Helper()
	got := next(t, w)
	for _, b := range got {
		if b.Root == root && b.Rescan {
			return
		}
	}
	t.Fatalf("no rescan of %s in %s", root, show(got))
}

// only takes the next delivery and asserts nothing follows it.
func only(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	got := next(t, w)
	none(t, w)
	return got
}

// wantPaths asserts a delivery of exactly one Batch for root with paths.
func wantPaths(t *testing.T, got []Batch, root string, paths ...string) {
	t.Helper()
	wantBatches(t, got, Batch{Root: root, Paths: paths})
}

// wantRescan asserts a delivery of rescans of roots: the Watcher's first
// roots, in order.
func wantRescan(t *testing.T, got []Batch, roots ...string) {
	t.Helper()
	var want []Batch
	for i, r := range roots {
		want = append(want, Batch{Root: r, Index: i, Rescan: true})
	}
	wantBatches(t, got, want...)
}

func wantBatches(t *testing.T, got []Batch, want ...Batch) {
	t.Helper()
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %s\nwant %s", show(got), show(want))
	}
}

// tree writes files (slash paths relative to dir) with their contents.
func tree(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// must fails the test on err: for the file operations of a test.
func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// show prints a delivery, eliding long path lists.
func show(bs []Batch) string {
	var out []string
	for _, b := range bs {
		paths := b.Paths
		if len(paths) > 6 {
			paths = append(slices.Clip(paths[:3]), fmt.Sprintf("… %d more …", len(paths)-6))
			paths = append(paths, b.Paths[len(b.Paths)-3:]...)
		}
		out = append(out, fmt.Sprintf("{%d:%s rescan=%v %q}", b.Index, b.Root, b.Rescan, paths))
	}
	return "[" + strings.Join(out, " ") + "]"
}
