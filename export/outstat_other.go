//go:build !linux

package export

import (
	"os"
	"path/filepath"
)

// An outDir is the output folder, in which a build over it looks its
// files up (see outstat_linux.go).
type outDir struct{ path string }

func openOut(out string) *outDir { return &outDir{path: out} }

func (d *outDir) close() {}

// regular is the size and modification time (Unix ns) of the regular
// file name (slash-separated) in the folder; ok is false for anything
// else, or nothing.
func (d *outDir) regular(name string) (size, mod int64, ok bool) {
	info, err := os.Lstat(filepath.Join(d.path, filepath.FromSlash(name)))
	if err != nil || !info.Mode().IsRegular() {
		return 0, 0, false
	}
	return info.Size(), info.ModTime().UnixNano(), true
}

// folderChanged is dirChanged of the folder name (slash-separated, ""
// for the folder itself) in the folder.
func (d *outDir) folderChanged(name string) (ns int64, ok bool) {
	return dirChanged(filepath.Join(d.path, filepath.FromSlash(name)))
}
