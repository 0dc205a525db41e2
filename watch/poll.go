package watch

import (
	"maps"
	"os"
	"path/filepath"
	"slices"
	"time"
)

// Folders that should be watched but cannot be (a watch limit was reached,
// or a root folder is gone) are polled: every Poll the Watcher tries to
// watch them again and, while it cannot, lists them and compares the
// listing with the last one. Slower than notifications, but never a silent
// stall.

// polled is the last listing of a polled folder; nil stamps for a root
// folder that is gone.
type polled struct {
	stamps map[string]stamp
}

type stamp struct {
	mode  os.FileMode
	size  int64
	mtime int64
}

func (w *Watcher) startPolling(dir string) {
	stamps, _ := list(dir)
	w.polled[dir] = &polled{stamps: stamps}
}

// list stamps the entries of dir. Folders are stamped by type only: what
// is inside them is watched or polled on its own.
func list(dir string) (map[string]stamp, error) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, err
	}
	out := make(map[string]stamp, len(entries))
	for _, e := range entries {
		st := stamp{mode: e.Type()}
		if !e.IsDir() {
			if info, err := e.Info(); err == nil {
				st.size, st.mtime = info.Size(), info.ModTime().UnixNano()
			}
		}
		out[e.Name()] = st
	}
	return out, nil
}

func (w *Watcher) pollAll(now time.Time) {
	for _, dir := range slices.Sorted(maps.Keys(w.polled)) {
		p, ok := w.polled[dir]
		if !ok {
			continue // dropped while polling an earlier folder
		}
		if w.lostRoot(dir) {
			if isDir(dir, true) {
				w.created(dir)
				w.note(dir, made, now)
			}
			continue
		}
		switch err := w.add(dir); {
		case err == nil:
			// Watched again; what changed meanwhile is not known, so the
			// folder is read again whole.
			w.log.Info("watch: watching folder again", "dir", dir)
			w.watchTree(dir)
			w.note(dir, made, now)
		case !isLimit(err):
			delete(w.polled, dir) // gone: its parent reports that
		default:
			w.diff(dir, p, now)
		}
	}
}

// diff reports what changed in a polled folder since its last listing.
func (w *Watcher) diff(dir string, p *polled, now time.Time) {
	cur, err := list(dir)
	if err != nil {
		return
	}
	for name, st := range cur {
		sub := filepath.Join(dir, name)
		old, seen := p.stamps[name]
		switch {
		case !seen:
			w.created(sub)
			w.note(sub, made, now)
		case old != st:
			w.note(sub, wrote, now)
		}
	}
	for name := range p.stamps {
		if _, ok := cur[name]; !ok {
			sub := filepath.Join(dir, name)
			w.removed(sub)
			w.note(sub, gone, now)
		}
	}
	p.stamps = cur
}

func (w *Watcher) lostRoot(dir string) bool {
	for _, r := range w.roots {
		if r.lost && r.dir == dir {
			return true
		}
	}
	return false
}
