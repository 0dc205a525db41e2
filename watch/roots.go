package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A Root is one thing a Watcher watches (NewRoots; the package
// documentation has the details):
//
//   - a folder (Names empty), watched with every folder below it;
//   - a file (Names empty), which must exist, watched through its folder
//     and filtered to its name;
//   - a names-only root (Names set): the folder Path alone, filtered to
//     the entries with these names, which need not exist.
//
// All roots feed the same bursts: a change that touches several of them
// is one delivery.
type Root struct {
	Path  string
	Names []string
}

// A root is one Root given to NewRoots.
type root struct {
	given string          // Root.Path as given; Batch.Root
	abs   string          // absolute and clean
	dir   string          // the folder watched for it: abs, or abs's parent for a file
	file  bool            // a file root
	names map[string]bool // the names of a names-only root; nil for the others
	lost  bool            // dir is gone; it is polled until it is back
}

func newRoot(given Root) (*root, error) {
	abs, err := filepath.Abs(given.Path)
	if err != nil {
		return nil, fmt.Errorf("watch: %s: %w", given.Path, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	r := &root{given: given.Path, abs: abs, dir: abs}
	if len(given.Names) > 0 {
		if !info.IsDir() {
			return nil, fmt.Errorf("watch: %s: names-only root is not a folder", given.Path)
		}
		r.names = map[string]bool{}
		for _, n := range given.Names {
			if n == "" || n == "." || n == ".." || strings.ContainsAny(n, `/`+string(filepath.Separator)) {
				return nil, fmt.Errorf("watch: %s: %q is not a name in the folder", given.Path, n)
			}
			r.names[n] = true
		}
		return r, nil
	}
	if !info.IsDir() {
		r.file, r.dir = true, filepath.Dir(abs)
	}
	return r, nil
}

// flat reports whether r's folder alone is watched for it, none below it:
// a file root or a names-only root.
func (r *root) flat() bool { return r.file || r.names != nil }

// rel returns name (absolute, clean) relative to r, slash-separated, and
// whether r reports it. The root itself is "."; a file root reports only
// its file, and its folder's own removal or return (as "."); a names-only
// root only its names, and its own removal or return.
func (r *root) rel(name string, ignore func(string) bool) (string, bool) {
	switch {
	case r.file:
		return ".", name == r.abs || name == r.dir
	case name == r.abs:
		return ".", true
	case r.names != nil:
		base := filepath.Base(name)
		return base, filepath.Dir(name) == r.abs && r.names[base]
	}
	rest, ok := under(name, r.abs)
	if !ok {
		return "", false
	}
	rel := filepath.ToSlash(rest)
	return rel, !ignore(rel)
}

// under returns name relative to dir when name is strictly inside dir.
func under(name, dir string) (string, bool) {
	prefix := dir
	if !strings.HasSuffix(prefix, string(filepath.Separator)) {
		prefix += string(filepath.Separator)
	}
	if !strings.HasPrefix(name, prefix) || len(name) == len(prefix) {
		return "", false
	}
	return name[len(prefix):], true
}

// within reports whether name is dir or inside it.
func within(name, dir string) bool {
	_, ok := under(name, dir)
	return ok || name == dir
}

var errNoRoot = errors.New("watch: no folder to watch")
