package main

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"folio/watch"
)

// folio dev runs two watchers. One watches the content and site folders
// with everything in them. The other watches the config file, the content
// folder and the site folder by name, in the folders that hold them: it
// sees them created, replaced or removed, and nothing else there.
//
// The config file needs this because it may not exist when folio dev
// starts (./config.toml is optional: the defaults apply until the author
// writes one), may be deleted (back to the defaults) and is replaced by a
// rename when most editors save it or git checks it out. The watch package
// watches a file root through its folder but needs the file to exist at
// start, so the folder is watched as a folder root instead, with an Ignore
// that keeps only the names: nothing below it is watched (the config's
// folder is often the project root, with .git, the content, maybe a Go
// module), and no other file in it starts a burst, so none causes a
// rebuild.
//
// The content and site folders need it because a folder removed while a
// snapshot still reads through a handle on it sends no removal event
// until that handle is closed: without a watch on the folder above, a
// content folder replaced by git or by hand would go unseen, and the
// watcher would keep watching the deleted one. So before each delivery is
// applied, the folders at those paths are compared with the ones the
// watchers were started on, and a new one gets new watchers and a fresh
// build (replaced).

// devWatch is the pair of watchers for one set of roots.
type devWatch struct {
	folders *watch.Watcher // the content and site folders, recursively
	names   *watch.Watcher // the config file, content and site folders, by name
	// The content and site folders as found just before the watchers
	// started (nil when missing or the embedded theme): a folder replaced
	// in between differs, and is watched again at the next delivery.
	content, site os.FileInfo
}

// newWatch starts watching roots and the config file.
func (d *devHost) newWatch(roots devRoots) (*devWatch, error) {
	dw := &devWatch{content: statOrNil(roots.content), site: statOrNil(roots.site)}
	var err error
	if dw.names, err = watchNames([]string{d.configPath(), roots.content, roots.site}, d.watchOpts); err != nil {
		return nil, err
	}
	if dw.folders, err = watch.New(roots.list(), d.watchOpts); err != nil {
		dw.names.Close()
		return nil, err
	}
	return dw, nil
}

func (dw *devWatch) Close() error {
	return errors.Join(dw.folders.Close(), dw.names.Close())
}

func statOrNil(dir string) os.FileInfo {
	if dir == "" {
		return nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	return info
}

// configPath is the config file folio dev reads and watches: --config,
// else ./config.toml, which need not exist.
func (d *devHost) configPath() string {
	if d.o.config != "" {
		return d.o.config
	}
	return "config.toml"
}

// watchNames watches paths ("" for none) by name in their folders, which
// must exist: each Batch is for one folder, given absolute, and its Paths
// are names from paths (or Rescan: the folder itself went or came back).
func watchNames(paths []string, opts watch.Options) (*watch.Watcher, error) {
	names := map[string]bool{}
	var dirs []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		names[filepath.Base(abs)] = true
		if dir := filepath.Dir(abs); !slices.Contains(dirs, dir) {
			dirs = append(dirs, dir)
		}
	}
	opts.Ignore = func(rel string) bool { return !names[rel] }
	return watch.New(dirs, opts)
}

// configIn reports whether a delivery of the names watcher is about the
// config file.
func (d *devHost) configIn(names []watch.Batch) bool {
	abs, err := filepath.Abs(d.configPath())
	if err != nil {
		return true // read it again: a wasted build at worst
	}
	for _, b := range names {
		if b.Root == filepath.Dir(abs) && (b.Rescan || slices.Contains(b.Paths, filepath.Base(abs))) {
			return true
		}
	}
	return false
}

// replaced reports whether the content or site folder now at its path is
// not the one the watchers were started on: made again, renamed over, or
// gone.
func (d *devHost) replaced() (content, site bool) {
	return !sameInfo(d.w.content, d.roots.content), d.roots.site != "" && !sameInfo(d.w.site, d.roots.site)
}

func sameInfo(info os.FileInfo, dir string) bool {
	now := statOrNil(dir)
	return info != nil && now != nil && os.SameFile(info, now)
}

// withoutConfig drops the config file from paths, a batch of the folder
// root: when the config lies inside the content (or site) folder, both
// watchers see its saves, and the names watcher's delivery alone must
// count, since it rebuilds everything anyway.
func (d *devHost) withoutConfig(root string, paths []string) []string {
	rel, ok := relInside(root, d.configPath())
	if !ok || !slices.Contains(paths, rel) {
		return paths
	}
	return slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == rel })
}

// relInside returns file relative to dir, slash-separated, when file is
// inside dir.
func relInside(dir, file string) (string, bool) {
	a, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	b, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(a, b)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// takeReady returns the delivery ch has ready, nil when it has none: a
// burst that touched the config and the content is one rebuild, not two,
// when both watchers have delivered by the time the loop wakes.
func takeReady(ch <-chan []watch.Batch) []watch.Batch {
	select {
	case b := <-ch:
		return b
	default:
		return nil
	}
}
