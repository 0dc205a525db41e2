package watch

import (
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// A hold is a file whose existence keeps the burst in progress open
// (Options.Hold): git's index.lock, which git creates before it writes
// the first file of a checkout, merge or reset and renames away after the
// last, however long it pauses in between.
type hold struct {
	path  string    // absolute and clean
	there bool      // the file exists
	since time.Time // when it appeared (at start: its modification time)
	stale bool      // it has existed for MaxDelay and no longer holds; warned
}

// watchHolds watches the folder of each hold, by itself, and notes which
// holds exist. A hold whose folder does not exist is never there.
func (w *Watcher) watchHolds() {
	for _, h := range w.holds {
		dir := filepath.Dir(h.path)
		if !isDir(dir, true) {
			continue
		}
		if err := w.b.Add(dir); err != nil {
			w.log.Warn("watch: cannot watch folder; a running git command may be seen as several changes", "dir", dir, "err", err)
			continue
		}
		info, err := os.Lstat(h.path)
		h.there, h.stale = err == nil, false
		if h.there {
			h.since = info.ModTime()
		}
	}
}

// holdEvent notes ev when it is about a hold. A hold released ends a
// quiet time from now: the burst is delivered a Quiet after the last
// writer let go, not a Quiet after its last file.
func (w *Watcher) holdEvent(ev fsnotify.Event, now time.Time) {
	name := filepath.Clean(ev.Name)
	for _, h := range w.holds {
		if h.path != name {
			continue
		}
		switch {
		case ev.Has(fsnotify.Create):
			h.there, h.since, h.stale = true, now, false
		case ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename):
			h.there = false
			if !w.burst.empty() {
				w.burst.touch(now)
			}
		}
	}
}

// deadline is when the burst in progress ends if nothing else arrives:
// the burst's own deadline, or while a hold is there, MaxDelay after the
// burst began or after the hold appeared, whichever is sooner. A hold
// there for MaxDelay is stale (a git that crashed leaves its lock behind)
// and holds nothing more until it goes and comes back.
func (w *Watcher) deadline(now time.Time) time.Time {
	end := w.burst.deadline(w.opts)
	for _, h := range w.holds {
		if !h.there || h.stale {
			continue
		}
		until := h.since.Add(w.opts.MaxDelay)
		if !now.Before(until) {
			h.stale = true
			w.log.Warn("watch: "+h.path+" has existed for "+w.opts.MaxDelay.String()+
				"; changes are no longer held for it (remove it if no git command is running)", "file", h.path)
			continue
		}
		if limit := w.burst.first.Add(w.opts.MaxDelay); limit.Before(until) {
			until = limit
		}
		if until.After(end) {
			end = until
		}
	}
	return end
}
