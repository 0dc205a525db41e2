package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"folio/watch"
)

// folio dev watches everything with one watch.Watcher, so that one change
// touching several of them (a git checkout that writes config.toml, then
// the posts) is one burst, one delivery and one rebuild: two watchers
// would each end their own burst, and the first delivery would make a
// snapshot from half the change. Its roots, in this order:
//
//   - the content folder, with everything in it;
//   - the site folder, with everything in it, when the config sets one;
//   - by name only, the folders that hold the config file, the content
//     folder and the site folder: they see those created, replaced or
//     removed, and nothing else there.
//
// The config file needs this because it may not exist when folio dev
// starts (./config.toml is optional: the defaults apply until the author
// writes one), may be deleted (back to the defaults) and is replaced by a
// rename when most editors save it or git checks it out. A file root
// needs the file to exist at start, so its folder is a names-only root:
// nothing below it is watched (the config's folder is often the project
// root, with .git, the content, maybe a Go module), and no other file in
// it starts a burst, so none causes a rebuild.
//
// The content and site folders need it because a folder removed while a
// snapshot still reads through a handle on it sends no removal event
// until that handle is closed: without a watch on the folder above, a
// content folder replaced by git or by hand would go unseen, and the
// watcher would keep watching the deleted one. So before each delivery is
// applied, the folders at those paths are compared with the ones the
// watcher was started on, and a new one gets a new watcher and a fresh
// build (replaced).

// devWatch is the watcher for one set of roots.
type devWatch struct {
	*watch.Watcher
	// The index of the site folder's root (-1 for none) and of the
	// names-only root of the config file's folder, where the file is
	// configName. The content folder's root is 0.
	siteRoot, configRoot int
	configName           string
	// The content and site folders as found just before the watcher
	// started (nil when missing or the embedded theme): a folder replaced
	// in between differs, and is watched again at the next delivery.
	content, site os.FileInfo
}

// newWatch starts watching roots and the config file.
func (d *devHost) newWatch(roots devRoots) (*devWatch, error) {
	dw := &devWatch{siteRoot: -1, content: statOrNil(roots.content), site: statOrNil(roots.site)}
	list := []watch.Root{{Path: roots.content}}
	if roots.site != "" {
		dw.siteRoot = len(list)
		list = append(list, watch.Root{Path: roots.site})
	}
	byName, err := namesRoots([]string{d.configPath(), roots.content, roots.site})
	if err != nil {
		return nil, err
	}
	config, err := filepath.Abs(d.configPath())
	if err != nil {
		return nil, err
	}
	dw.configName = filepath.Base(config)
	for i, r := range byName {
		if r.Path == filepath.Dir(config) {
			dw.configRoot = len(list) + i
		}
	}
	if dw.Watcher, err = watch.NewRoots(append(list, byName...), d.watchOpts); err != nil {
		return nil, err
	}
	return dw, nil
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

// namesRoots are the names-only roots that watch paths ("" for none) by
// name in their folders, which must exist: one root for each folder,
// absolute, in the order of paths.
func namesRoots(paths []string) ([]watch.Root, error) {
	var roots []watch.Root
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		dir, name := filepath.Dir(abs), filepath.Base(abs)
		if dir == abs {
			continue // a file system's root: no folder holds it
		}
		i := slices.IndexFunc(roots, func(r watch.Root) bool { return r.Path == dir })
		switch {
		case i < 0:
			roots = append(roots, watch.Root{Path: dir, Names: []string{name}})
		case !slices.Contains(roots[i].Names, name):
			roots[i].Names = append(roots[i].Names, name)
		}
	}
	return roots, nil
}

// configIn reports whether a delivery is about the config file: its name
// in its folder, or that folder gone or back.
func (dw *devWatch) configIn(batches []watch.Batch) bool {
	for _, b := range batches {
		if b.Index == dw.configRoot && (b.Rescan || slices.Contains(b.Paths, dw.configName)) {
			return true
		}
	}
	return false
}

// replaced reports whether the content or site folder now at its path is
// not the one the watcher was started on: made again, renamed over, or
// gone.
func (d *devHost) replaced() (content, site bool) {
	return !sameInfo(d.w.content, d.roots.content), d.roots.site != "" && !sameInfo(d.w.site, d.roots.site)
}

func sameInfo(info os.FileInfo, dir string) bool {
	now := statOrNil(dir)
	return info != nil && now != nil && os.SameFile(info, now)
}

// withoutConfig drops the config file from paths, a batch of the folder
// root: when the config lies inside the content (or site) folder, that
// root reports its saves too, and the config's root alone must count,
// since it rebuilds everything anyway.
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
