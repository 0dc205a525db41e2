package watch

import (
	"bytes"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Waits are generous: the machine running the tests may be busy. Nothing
// here asserts speed, and the tests use a longer Quiet than the default so
// that a writer descheduled for a moment in the middle of a save does not
// split it: "exactly one delivery" is about coalescing, not about the
// scheduler. The defaults are measured, not asserted, by
// BenchmarkSaveToBatch and BenchmarkGitCheckout.
const (
	testQuiet = 40 * time.Millisecond
	// bulkQuiet is for the tests of 1,000-file bursts: a writer paused
	// by a busy machine right at the start of a burst must not split it.
	bulkQuiet = 150 * time.Millisecond
	waitBatch = 10 * time.Second
)

// settle is how long no further delivery may arrive for one to count as
// the only one: above the longest silence a burst of w waits for.
func settle(w *Watcher) time.Duration { return 20*w.opts.Quiet + 400*time.Millisecond }

// logBuffer collects a Watcher's log for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// start watches roots with opts (a test logger unless set) and closes the
// Watcher when the test ends.
func start(t *testing.T, opts Options, roots ...string) (*Watcher, *logBuffer) {
	t.Helper()
	logs := &logBuffer{}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	}
	if opts.Quiet == 0 {
		opts.Quiet = testQuiet
	}
	w, err := New(roots, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, logs
}

// next waits for the next delivery.
func next(t *testing.T, w *Watcher) []Batch {
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

// none asserts that no delivery arrives for a while.
func none(t *testing.T, w *Watcher) {
	t.Helper()
	select {
	case got := <-w.Batches():
		t.Fatalf("unexpected delivery %s", show(got))
	case <-time.After(settle(w)):
	}
}

// rescanned waits for a delivery that rescans root: the deliveries before
// it may name what went first (a folder's removal reaches its own watch a
// little after its parent's).
func rescanned(t *testing.T, w *Watcher, root string) {
	t.Helper()
	deadline := time.Now().Add(waitBatch)
	for time.Now().Before(deadline) {
		for _, b := range next(t, w) {
			if b.Root == root && b.Rescan {
				return
			}
		}
	}
	t.Fatalf("no rescan of %s", root)
}

// only waits for the next delivery and asserts it is the only one.
func only(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	got := next(t, w)
	none(t, w)
	return got
}

// onlyRepeated is only for a change whose events may straggle: a folder's
// removal reaches its own watches a little after its parent's, and on a
// loaded machine that can be past the burst's silence, so the same batch
// may come twice. Repeats of the first delivery are drained; anything
// else is a failure.
func onlyRepeated(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	got := next(t, w)
	for {
		select {
		case again := <-w.Batches():
			if !reflect.DeepEqual(again, got) {
				t.Fatalf("unexpected delivery %s after %s", show(again), show(got))
			}
		case <-time.After(settle(w)):
			return got
		}
	}
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
