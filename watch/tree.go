package watch

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
)

// fsnotify does not recurse: the Watcher keeps one watch per folder, adds
// folders as they appear and drops them as they go. It watches folders,
// never files, so a file replaced by a rename (the way most editors save)
// is still seen: the event comes from its folder.

// wanted reports whether dir is a folder some folder root watches: inside
// it and not ignored.
func (w *Watcher) wanted(dir string) bool {
	for _, r := range w.roots {
		if r.flat() || r.lost {
			continue
		}
		if _, ok := r.rel(dir, w.opts.Ignore); ok {
			return true
		}
	}
	return false
}

// watchTree watches dir and every wanted folder below it. A folder that
// cannot be watched because of a watch limit is polled instead.
func (w *Watcher) watchTree(dir string) {
	if err := w.add(dir); err != nil && !isLimit(err) {
		return // gone again, or unreadable: nothing below to watch
	}
	// The folder is watched before it is listed, so a subfolder made in
	// the meantime is either listed here or reported by the new watch.
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		sub := filepath.Join(dir, e.Name())
		if e.IsDir() && w.wanted(sub) {
			w.watchTree(sub)
		}
	}
}

// add watches one folder.
func (w *Watcher) add(dir string) error {
	id, hasID := idOf(dir)
	if cur, ok := w.dirs[dir]; ok {
		if !hasID || cur == id {
			return nil
		}
		w.unwatchTree(dir) // a new folder under an old name
	}
	if old, ok := w.ids[id]; hasID && ok {
		// The folder was moved here and its rename event is still on its
		// way (a walk got here first). A watch on it would keep reporting
		// the old name, so the old watches go first.
		w.unwatchTree(old)
	}
	err := w.b.Add(dir)
	switch {
	case err == nil:
		w.dirs[dir] = id
		if hasID {
			w.ids[id] = dir
		}
		delete(w.polled, dir)
	case isLimit(err):
		if w.polled[dir] == nil {
			w.limited = append(w.limited, limitHit{dir, err})
			w.startPolling(dir)
		}
	case !errors.Is(err, fs.ErrNotExist) && !errors.Is(err, errNotDir):
		w.log.Warn("watch: cannot watch folder; changes in it are not seen", "dir", dir, "err", err)
	}
	return err
}

// unwatchTree drops the watches on dir and every folder below it: dir was
// removed or renamed. A renamed folder keeps its inotify watches under the
// old names, so they must go before the new name is watched.
func (w *Watcher) unwatchTree(dir string) {
	if _, ok := w.dirs[dir]; !ok && w.polled[dir] == nil {
		return // not a folder we know (the common case: a file)
	}
	for d, id := range w.dirs {
		if within(d, dir) {
			w.b.Remove(d) // the kernel may have dropped it already
			delete(w.dirs, d)
			if w.ids[id] == d {
				delete(w.ids, id)
			}
		}
	}
	for d := range w.polled {
		if within(d, dir) && !w.isRootDir(d) {
			delete(w.polled, d)
		}
	}
}

// resync forgets every watch and watches every root again, after events
// were lost: folders made or removed meanwhile were never seen.
func (w *Watcher) resync() {
	for _, d := range slices.Sorted(maps.Keys(w.dirs)) {
		w.b.Remove(d)
	}
	clear(w.dirs)
	clear(w.ids)
	for _, r := range w.roots {
		switch {
		case r.lost: // polled until it is back
		case r.flat():
			w.add(r.dir)
		default:
			w.watchTree(r.abs)
		}
	}
	w.watchHolds()
}

func (w *Watcher) isRootDir(dir string) bool {
	for _, r := range w.roots {
		if r.dir == dir {
			return true
		}
	}
	return false
}
