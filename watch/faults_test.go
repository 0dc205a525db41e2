package watch

import (
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"

	"folio/internal/syncbuf"
)

// hooked wraps the real backend: it records the watches the Watcher
// holds, and lets a test lose events, inject errors and make Add fail,
// which the kernel does not do on demand.
type hooked struct {
	real   backend
	events chan fsnotify.Event
	errs   chan error
	closed chan struct{}

	mu      sync.Mutex
	dropAll bool                   // lose every event, as an overflowing queue does
	through string                 // dropAll ends after the event for this file
	dropped chan struct{}          // closed when it has
	fail    func(dir string) error // Add's error for dir, if any
	watched map[string]bool
}

func newHooked(t *testing.T) *hooked {
	t.Helper()
	real, err := newNotify()
	if err != nil {
		t.Fatal(err)
	}
	h := &hooked{real: real, events: make(chan fsnotify.Event), errs: make(chan error),
		closed: make(chan struct{}), watched: map[string]bool{}}
	go h.forward()
	return h
}

func (h *hooked) forward() {
	evs, errs := h.real.Events(), h.real.Errors()
	for evs != nil || errs != nil {
		select {
		case ev, ok := <-evs:
			if !ok {
				evs = nil
			} else if !h.dropping(ev.Name) {
				select {
				case h.events <- ev:
				case <-h.closed:
				}
			}
		case err, ok := <-errs:
			if !ok {
				errs = nil
			} else {
				h.inject(err)
			}
		}
	}
}

func (h *hooked) inject(err error) {
	select {
	case h.errs <- err:
	case <-h.closed:
	}
}

// dropping reports whether the event for name is lost, and ends the
// losing after the file dropThrough named.
func (h *hooked) dropping(name string) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	drop := h.dropAll
	if drop && name == h.through {
		h.dropAll, h.through = false, ""
		close(h.dropped)
	}
	return drop
}

// dropFrom loses every event from now on, until dropThrough.
func (h *hooked) dropFrom() {
	h.mu.Lock()
	h.dropAll = true
	h.mu.Unlock()
}

// dropThrough creates a file in w's sync folder and waits until its event
// is lost too: every event before it was, and none after it will be.
func (h *hooked) dropThrough(t *testing.T, w *Watcher) {
	t.Helper()
	name := filepath.Join(w.opts.SyncDir, fmt.Sprint("drop", syncs.Add(1)))
	h.mu.Lock()
	h.through, h.dropped = name, make(chan struct{})
	done := h.dropped
	h.mu.Unlock()
	must(t, os.WriteFile(name, nil, 0o644))
	select {
	case <-done:
	case <-time.After(waitBatch):
		t.Fatalf("the event for %s did not come within %v", name, waitBatch)
	}
}

func (h *hooked) setFail(fail func(dir string) error) {
	h.mu.Lock()
	h.fail = fail
	h.mu.Unlock()
}

func (h *hooked) Add(dir string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.fail != nil {
		if err := h.fail(dir); err != nil {
			return err
		}
	}
	if err := h.real.Add(dir); err != nil {
		return err
	}
	h.watched[dir] = true
	return nil
}

func (h *hooked) Remove(dir string) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.watched, dir)
	return h.real.Remove(dir)
}

func (h *hooked) Events() <-chan fsnotify.Event { return h.events }
func (h *hooked) Errors() <-chan error          { return h.errs }

func (h *hooked) Close() error {
	close(h.closed)
	return h.real.Close()
}

// watchedUnder lists the folders at or below dir the Watcher watches.
func (h *hooked) watchedUnder(dir string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []string
	for d := range h.watched {
		if within(d, dir) {
			out = append(out, d)
		}
	}
	return out
}

// startWith is start with the backend b.
func startWith(t *testing.T, opts Options, b backend, roots ...string) (*Watcher, *syncbuf.Buffer) {
	t.Helper()
	logs := &syncbuf.Buffer{}
	opts.Logger = slog.New(slog.NewTextHandler(logs, nil))
	if opts.SyncDir == "" {
		opts.SyncDir, opts.Synced = t.TempDir(), make(chan bool)
	}
	rs := make([]Root, len(roots))
	for i, r := range roots {
		rs[i] = Root{Path: r}
	}
	w, err := newWatcher(rs, opts, b)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	return w, logs
}

// TestOverflow loses the events of a new folder, then reports the
// overflow as the kernel does: a rescan of every root, a warning that says
// what to do, and the new folder watched.
func TestOverflow(t *testing.T) {
	t.Parallel()
	dir, site := t.TempDir(), t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	h := newHooked(t)
	w, logs := startWith(t, Options{}, h, dir, site)

	h.dropFrom()
	tree(t, dir, map[string]string{"blog/lost/index.md": "never seen"})
	h.dropThrough(t, w) // the events are lost
	h.inject(fsnotify.ErrEventOverflow)

	wantRescan(t, only(t, w), dir, site)
	if log := logs.String(); !strings.Contains(log, "overflowed") || !strings.Contains(log, "fs.inotify.max_queued_events") {
		t.Errorf("warning does not say what happened and what to do:\n%s", log)
	}
	tree(t, dir, map[string]string{"blog/lost/index.md": "seen"})
	wantPaths(t, only(t, w), dir, "blog/lost/index.md")
}

// TestNotifyError treats any other notification error like an overflow.
func TestNotifyError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	h := newHooked(t)
	w, logs := startWith(t, Options{}, h, dir)
	h.inject(syscall.EIO)
	wantRescan(t, only(t, w), dir)
	if !strings.Contains(logs.String(), "input/output error") {
		t.Errorf("error not logged:\n%s", logs)
	}
}

// failUnder makes Add fail with ENOSPC at or below dir.
func failUnder(dir string) func(string) error {
	return func(d string) error {
		if within(d, dir) {
			return syscall.ENOSPC
		}
		return nil
	}
}

// TestWatchLimitAtStart cannot watch a folder from the start: a warning
// that says how to raise the limit, the folder polled meanwhile, and
// watched once the limit allows.
func TestWatchLimitAtStart(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x", "blog/limited/a.md": "a", "blog/limited/sub/b.png": "b"})
	limited := filepath.Join(dir, "blog/limited")
	h := newHooked(t)
	h.setFail(failUnder(limited))
	w, logs := startWith(t, Options{}, h, dir)
	if log := logs.String(); !strings.Contains(log, "cannot watch 2 folder(s)") || !strings.Contains(log, "fs.inotify.max_user_watches") {
		t.Errorf("warning does not say what happened and what to do:\n%s", log)
	}
	none(t, w)

	// Polled: a change, a new file, a removal, a new folder.
	time.Sleep(20 * time.Millisecond) // a new mtime even on coarse clocks
	tree(t, dir, map[string]string{"blog/limited/a.md": "changed"})
	wantPaths(t, only(t, w), dir, "blog/limited/a.md")
	tree(t, dir, map[string]string{"blog/limited/sub/c.png": "c"})
	wantPaths(t, only(t, w), dir, "blog/limited/sub/c.png")
	must(t, os.Remove(filepath.Join(limited, "a.md")))
	wantPaths(t, only(t, w), dir, "blog/limited/a.md")
	must(t, os.Mkdir(filepath.Join(limited, "new"), 0o755))
	wantRescan(t, only(t, w), dir) // the new folder cannot be watched either
	tree(t, dir, map[string]string{"blog/limited/new/d.md": "d"})
	wantPaths(t, only(t, w), dir, "blog/limited/new/d.md")

	// The limit is raised: watched again, each folder read again once.
	h.setFail(nil)
	wantPaths(t, next(t, w), dir, "blog/limited")
	none(t, w)
	if got := h.watchedUnder(limited); len(got) != 3 {
		t.Fatalf("watched under %s: %v, want the folder, sub and new", limited, got)
	}
	tree(t, dir, map[string]string{"blog/limited/new/d.md": "d2"})
	wantPaths(t, only(t, w), dir, "blog/limited/new/d.md")
}

// TestWatchLimitNewFolder hits the limit on a folder made while running:
// a rescan and a warning.
func TestWatchLimitNewFolder(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x"})
	h := newHooked(t)
	w, logs := startWith(t, Options{}, h, dir)
	h.setFail(failUnder(filepath.Join(dir, "blog/new")))
	must(t, os.Mkdir(filepath.Join(dir, "blog/new"), 0o755))
	wantRescan(t, only(t, w), dir)
	if !strings.Contains(logs.String(), "max_user_watches") {
		t.Errorf("no warning:\n%s", logs)
	}
	tree(t, dir, map[string]string{"blog/new/x.md": "x"})
	wantPaths(t, only(t, w), dir, "blog/new/x.md")
}

// TestForwardErrorsNeverWaits: fsnotify's errors are taken as they come
// whether or not the Watcher reads them (fsnotify may send one while it
// holds the lock Remove needs, from the goroutine that would read it),
// at most pendingErrors wait, and the channel closes with fsnotify's.
func TestForwardErrorsNeverWaits(t *testing.T) {
	src := make(chan error) // unbuffered, as fsnotify's Errors
	dst := make(chan error, pendingErrors)
	go forwardErrors(src, dst)
	for i := range 3 * pendingErrors {
		select {
		case src <- fmt.Errorf("error %d", i):
		case <-time.After(10 * time.Second): // a hang guard, not a timing
			t.Fatalf("sending error %d waited for a reader", i)
		}
	}
	close(src)
	var got []error
	for err := range dst {
		got = append(got, err)
	}
	// The queue was full from the 17th on; the last error, taken before
	// this test began to read, finds room or not as the goroutines run.
	if len(got) < pendingErrors || len(got) > pendingErrors+1 || got[0].Error() != "error 0" {
		t.Errorf("got %d errors, first %v; want the first %d (and maybe the last)", len(got), got[0], pendingErrors)
	}
}
