package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// A root is one path given to New: a folder watched with everything below
// it, or a file whose folder alone is watched and filtered to its name.
type root struct {
	given string // as passed to New; Batch.Root
	abs   string // absolute and clean
	dir   string // the folder watched for it: abs, or abs's parent for a file
	file  bool
	lost  bool // dir is gone; it is polled until it is back
}

func newRoot(given string) (*root, error) {
	abs, err := filepath.Abs(given)
	if err != nil {
		return nil, fmt.Errorf("watch: %s: %w", given, err)
	}
	info, err := os.Stat(abs)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	r := &root{given: given, abs: abs, dir: abs}
	if !info.IsDir() {
		r.file, r.dir = true, filepath.Dir(abs)
	}
	return r, nil
}

// rel returns name (absolute, clean) relative to r, slash-separated, and
// whether r reports it. The root itself is "."; a file root reports only
// its file, and its folder's own removal or return (as ".").
func (r *root) rel(name string, ignore func(string) bool) (string, bool) {
	if r.file {
		return ".", name == r.abs || name == r.dir
	}
	if name == r.abs {
		return ".", true
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
