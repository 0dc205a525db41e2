package server

import (
	"os"

	"golang.org/x/sys/unix"
)

// memFile returns a memfd holding body, read-only from here on (sealed),
// or nil when one cannot be made.
func memFile(body []byte) *os.File {
	fd, err := unix.MemfdCreate("folio-body", unix.MFD_CLOEXEC|unix.MFD_ALLOW_SEALING)
	if err != nil {
		return nil
	}
	f := os.NewFile(uintptr(fd), "folio-body")
	if n, err := f.Write(body); err != nil || n != len(body) {
		f.Close()
		return nil
	}
	unix.FcntlInt(f.Fd(), unix.F_ADD_SEALS, unix.F_SEAL_SHRINK|unix.F_SEAL_GROW|unix.F_SEAL_WRITE|unix.F_SEAL_SEAL)
	return f
}
