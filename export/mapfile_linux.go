package export

import (
	"os"

	"golang.org/x/sys/unix"
)

// mapFile maps the first size bytes of f into memory, read-only, its
// pages read in at once (MAP_POPULATE). The mapping is never unmapped:
// it is for a process that ends with its build (see Ahead).
func mapFile(f *os.File, size int64) ([]byte, bool) {
	if size <= 0 || int64(int(size)) != size {
		return nil, false
	}
	b, err := unix.Mmap(int(f.Fd()), 0, int(size), unix.PROT_READ, unix.MAP_SHARED|unix.MAP_POPULATE)
	if err != nil {
		return nil, false
	}
	return b, true
}
