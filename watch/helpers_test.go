package watch

import (
	"bytes"
	"log/slog"
	"os"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"
)

// Waits are generous: the machine running the tests may be busy. Nothing
// here asserts speed.
const (
	waitBatch = 10 * time.Second
	// settle is how long no further batch may arrive for a delivery to
	// count as the only one: well above the longest silence a burst
	// waits for (20 Quiet).
	settle = 500 * time.Millisecond
)

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
		t.Fatalf("unexpected delivery %+v", got)
	case <-time.After(settle):
	}
}

// only waits for the next delivery and asserts it is the only one.
func only(t *testing.T, w *Watcher) []Batch {
	t.Helper()
	got := next(t, w)
	none(t, w)
	return got
}

// wantPaths asserts a delivery of exactly one Batch for root with paths.
func wantPaths(t *testing.T, got []Batch, root string, paths ...string) {
	t.Helper()
	want := []Batch{{Root: root, Paths: paths}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got  %+v\nwant %+v", got, want)
	}
}

// tree writes files (slash paths relative to dir) with their contents.
func tree(t *testing.T, dir string, files map[string]string) {
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
func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
