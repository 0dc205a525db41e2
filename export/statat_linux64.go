//go:build linux && (amd64 || arm64 || riscv64 || ppc64 || ppc64le || s390x)

package export

import (
	"strings"
	"unsafe"

	"golang.org/x/sys/unix"
)

// statAt is unix.Fstatat of name in the folder fd, not following a
// symbolic link, without making the name a C string on the heap each
// time (a build over its output looks at some 64,000 names): the name
// is copied into a buffer on the stack, when it fits. On these systems
// newfstatat fills unix.Stat_t as it is; elsewhere (statat_other.go)
// unix.Fstatat converts.
func statAt(fd int, name string, st *unix.Stat_t) error {
	var buf [256]byte
	if len(name) >= len(buf) || strings.IndexByte(name, 0) >= 0 {
		return unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
	}
	copy(buf[:], name)
	for {
		_, _, errno := unix.Syscall6(unix.SYS_NEWFSTATAT, uintptr(fd), uintptr(unsafe.Pointer(&buf[0])),
			uintptr(unsafe.Pointer(st)), unix.AT_SYMLINK_NOFOLLOW, 0, 0)
		switch errno {
		case 0:
			return nil
		case unix.EINTR:
			continue
		}
		return errno
	}
}
