package export

import (
	"os"
	"syscall"
)

// stampOf is the stamp of the file info describes (an os.FileInfo of
// this system); ok is false without one.
func stampOf(info os.FileInfo) (s fileStamp, ok bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return s, false
	}
	return fileStamp{dev: uint64(st.Dev), ino: uint64(st.Ino), size: st.Size,
		mod: st.Mtim.Nano(), change: st.Ctim.Nano()}, true
}
