package mapfile

import (
	"os"

	"golang.org/x/sys/unix"
)

// Map maps the first size bytes of f into memory, read-only, its pages
// read in at once (MAP_POPULATE: one system call, not a fault for each
// page as it is first read). The mapping is never unmapped.
func Map(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return b, true
}
