//go:build !unix

package export

import "os"

// dirChanged: without a status-change time, every folder is listed.
func dirChanged(string) (int64, bool) { return 0, false }

// dirStamp: likewise.
func dirStamp(string) (int64, uint64, bool) { return 0, 0, false }

// regularFile is the size and modification time (Unix ns) of the
// regular file name, and no status-change time (0); ok is false for
// anything else, or nothing.
func regularFile(name string) (size, mod, change int64, ok bool) {
	info, err := os.Lstat(name)
	if err != nil || !info.Mode().IsRegular() {
		return 0, 0, 0, false
	}
	return info.Size(), info.ModTime().UnixNano(), 0, true
}
