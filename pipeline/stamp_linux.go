//go:build linux

package pipeline

import (
	"io/fs"
	"syscall"
)

// stampOf is the stamp of a regular file (see fileStamp).
func stampOf(info fs.FileInfo) (fileStamp, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok || !info.Mode().IsRegular() {
		return fileStamp{}, false
	}
	return fileStamp{size: st.Size, mod: st.Mtim.Nano(), change: st.Ctim.Nano(), ino: uint64(st.Ino), dev: uint64(st.Dev)}, true
}
