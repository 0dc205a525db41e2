package watch

import (
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"folio/internal/syncbuf"
)

// TestHoldDeadline: while a hold is there, the burst waits for it, at most
// MaxDelay from the burst's start or from the hold's; a hold there for
// MaxDelay is stale and holds nothing, and says so once.
func TestHoldDeadline(t *testing.T) {
	ms := time.Millisecond
	t0 := time.Unix(1_700_000_000, 0)
	tests := []struct {
		name        string
		there       bool
		since, now  time.Duration // after t0
		first, last time.Duration
		want        time.Duration
		stale       bool
	}{
		{name: "no hold", first: 0, last: 0, now: 1 * ms, want: 4 * ms},
		{name: "held from the burst's start", there: true, since: 0, first: 1 * ms, last: 3 * ms, now: 4 * ms, want: 5000 * ms},
		{name: "held since before the burst", there: true, since: -1000 * ms, first: 0, last: 0, now: 1 * ms, want: 4000 * ms},
		{name: "burst began before the hold", there: true, since: 2000 * ms, first: 0, last: 2000 * ms, now: 2001 * ms, want: 5000 * ms},
		{name: "stale", there: true, since: -5000 * ms, first: 0, last: 0, now: 1 * ms, want: 4 * ms, stale: true},
	}
	for _, tt := range tests {
		logs := &syncbuf.Buffer{}
		h := &hold{path: "/site/.git/index.lock", there: tt.there, since: t0.Add(tt.since)}
		w := &Watcher{
			opts:  Options{Logger: slog.New(slog.NewTextHandler(logs, nil))}.withDefaults(),
			burst: burst{first: t0.Add(tt.first), last: t0.Add(tt.last)},
			holds: []*hold{h},
		}
		w.log = w.opts.Logger
		if got := w.deadline(t0.Add(tt.now)).Sub(t0); got != tt.want {
			t.Errorf("%s: deadline %v, want %v", tt.name, got, tt.want)
		}
		if h.stale != tt.stale || strings.Contains(logs.String(), "has existed") != tt.stale {
			t.Errorf("%s: stale %v, log %q; want stale %v", tt.name, h.stale, logs.String(), tt.stale)
		}
		w.deadline(t0.Add(tt.now))
		if n := strings.Count(logs.String(), "has existed"); n > 1 {
			t.Errorf("%s: warned %d times, want once", tt.name, n)
		}
	}
}

// TestHoldKeepsBurstOpen: with the real clock and a 1 ms quiet time, the
// changes made while git's index.lock exists are held, however long the
// pause between them, and delivered as one batch once the lock is renamed
// away, as git does when a checkout ends.
func TestHoldKeepsBurstOpen(t *testing.T) {
	site := t.TempDir()
	tree(t, site, map[string]string{"content/blog/x.md": "x", ".git/HEAD": "ref: refs/heads/main\n"})
	lock := filepath.Join(site, ".git", "index.lock")
	w, err := New([]string{filepath.Join(site, "content")}, Options{
		Quiet: time.Millisecond, MaxDelay: time.Hour, Logger: discard, Hold: []string{lock},
	})
	must(t, err)
	t.Cleanup(func() { w.Close() })

	must(t, os.WriteFile(lock, nil, 0o644))
	tree(t, site, map[string]string{"content/blog/x.md": "x2"})
	select {
	case got := <-w.Batches():
		t.Fatalf("delivered %s while index.lock exists", show(got))
	case <-time.After(200 * time.Millisecond): // a pause git may take; the quiet time is 1 ms
	}
	tree(t, site, map[string]string{"content/blog/y.md": "y"})
	must(t, os.Rename(lock, filepath.Join(site, ".git", "index")))
	wantPaths(t, receive(t, w), filepath.Join(site, "content"), "blog/x.md", "blog/y.md")
}

// TestStaleHoldIgnored: a lock left by a git that crashed an hour ago does
// not hold a save for MaxDelay.
func TestStaleHoldIgnored(t *testing.T) {
	site := t.TempDir()
	tree(t, site, map[string]string{"content/blog/x.md": "x", ".git/index.lock": ""})
	lock := filepath.Join(site, ".git", "index.lock")
	old := time.Now().Add(-time.Hour)
	must(t, os.Chtimes(lock, old, old))
	logs := &syncbuf.Buffer{}
	w, err := New([]string{filepath.Join(site, "content")}, Options{
		Quiet: time.Millisecond, MaxDelay: 10 * time.Minute, Hold: []string{lock},
		Logger: slog.New(slog.NewTextHandler(logs, nil)),
	})
	must(t, err)
	t.Cleanup(func() { w.Close() })
	tree(t, site, map[string]string{"content/blog/x.md": "x2"})
	wantPaths(t, receive(t, w), filepath.Join(site, "content"), "blog/x.md")
	if !strings.Contains(logs.String(), "index.lock has existed") {
		t.Errorf("no warning about the stale lock; log:\n%s", logs)
	}
}
