package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/fsnotify/fsnotify"
)

// handle takes one event: it keeps the watches in step with the folders
// and notes the change.
func (w *Watcher) handle(ev fsnotify.Event, now time.Time) {
	if ev.Op&^fsnotify.Chmod == 0 {
		return // attributes only (also sent before a removal): content unchanged
	}
	name := filepath.Clean(ev.Name)
	o := wrote
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.removed(name)
		o = gone
	}
	if ev.Has(fsnotify.Create) {
		// Whatever was watched under this name before is gone (a folder
		// renamed over an empty one sends no event of its own).
		w.unwatchTree(name)
		w.created(name)
		o = made
	}
	w.note(name, o, now)
}

// note records a change of name for every root that reports it.
func (w *Watcher) note(name string, o op, now time.Time) {
	for i, r := range w.roots {
		rel, ok := r.rel(name, w.opts.Ignore)
		switch {
		case !ok:
		case rel == "." && !r.file:
			w.burst.rescanRoot(i, now)
		default:
			w.burst.add(i, rel, o, now)
		}
	}
}

// removed drops the watches of a folder that was removed or renamed away;
// a root folder that goes is polled until it is back.
func (w *Watcher) removed(name string) {
	w.unwatchTree(name)
	warned := false // once for roots that share the folder
	for _, r := range w.roots {
		if r.dir == name && !r.lost {
			r.lost = true
			w.polled[r.dir] = &polled{}
			if !warned {
				w.log.Warn("watch: a watched folder was removed or renamed; waiting for it to come back", "dir", r.dir)
				warned = true
			}
		}
	}
}

// created watches a new folder and everything already inside it: files
// made before the watch was in place send no event, so the folder itself
// is reported and read again whole.
func (w *Watcher) created(name string) {
	back := false // once for roots that share the folder
	for _, r := range w.roots {
		if r.lost && r.dir == name && isDir(name, true) {
			r.lost = false
			delete(w.polled, r.dir)
			if !back {
				w.log.Info("watch: watched folder is back", "dir", r.dir)
				back = true
			}
		}
	}
	// Symbolic links are not followed below a root (the pipeline does not
	// follow them either), but a root may be one.
	if isDir(name, w.isRootDir(name)) && w.wanted(name) {
		w.watchTree(name)
	}
	for _, r := range w.roots {
		if r.flat() && r.dir == name && !r.lost {
			w.add(r.dir)
		}
	}
}

// eventsLost handles an error from the notifications: the queue overflowed
// (or worse), so changes were missed. Everything is watched afresh and
// every root read again.
func (w *Watcher) eventsLost(err error, now time.Time) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.log.Warn("watch: too many changes at once, the kernel's event queue overflowed and events were lost; " +
			"rescanning everything (if this repeats, raise fs.inotify.max_queued_events, e.g. sudo sysctl fs.inotify.max_queued_events=65536)")
	} else {
		w.log.Warn("watch: file notifications failed; rescanning everything", "err", err)
	}
	w.resync()
	for i := range w.roots {
		w.burst.rescanRoot(i, now)
	}
}

// reportLimits logs the folders that just hit a watch limit, once, and
// after start has their roots read again.
func (w *Watcher) reportLimits(now time.Time) {
	if len(w.limited) == 0 {
		return
	}
	first := w.limited[0]
	w.log.Warn(fmt.Sprintf("watch: cannot watch %d folder(s) (first: %s): %s; until then they are polled every %s, which is slower",
		len(w.limited), first.dir, limitAdvice(first.err), w.opts.Poll), "err", first.err)
	if w.started {
		for i, r := range w.roots {
			for _, hit := range w.limited {
				if hit.dir == r.dir || !r.flat() && within(hit.dir, r.abs) {
					w.burst.rescanRoot(i, now)
					break
				}
			}
		}
	}
	w.limited = nil
}

func isDir(name string, follow bool) bool {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	info, err := stat(name)
	return err == nil && info.IsDir()
}
