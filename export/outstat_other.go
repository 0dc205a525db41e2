//go:build !linux

package export

import "path/filepath"

// An outDir is the output folder, in which a build over it looks its
// files up (see outstat_linux.go).
type outDir struct{ path string }

func openOut(out string) *outDir { return &outDir{path: out} }

func (d *outDir) close() {}

// regular is regularFile of the file name (slash-separated) in the
// folder.
func (d *outDir) regular(name string) (size, mod, change int64, ok bool) {
	return regularFile(filepath.Join(d.path, filepath.FromSlash(name)))
}

// folderChanged is dirChanged of the folder name (slash-separated, ""
// for the folder itself) in the folder.
func (d *outDir) folderChanged(name string) (ns int64, ok bool) {
	return dirChanged(filepath.Join(d.path, filepath.FromSlash(name)))
}
