//go:build unix

package watch

import (
	"os"
	"syscall"
)

// fileID identifies a folder independently of its name.
type fileID struct{ dev, ino uint64 }

// idOf returns the identity of the folder at name, following symbolic
// links as a watch does.
func idOf(name string) (fileID, bool) {
	info, err := os.Stat(name)
	if err != nil {
		return fileID{}, false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return fileID{}, false
	}
	return fileID{uint64(st.Dev), uint64(st.Ino)}, true
}
