//go:build linux && !(amd64 || arm64 || riscv64 || ppc64 || ppc64le || s390x)

package export

import "golang.org/x/sys/unix"

// statAt is unix.Fstatat of name in the folder fd, not following a
// symbolic link. (32-bit systems and those whose kernel stat differs
// from unix.Stat_t: the library's call converts.)
func statAt(fd int, name string, st *unix.Stat_t) error {
	for {
		err := unix.Fstatat(fd, name, st, unix.AT_SYMLINK_NOFOLLOW)
		if err != unix.EINTR {
			return err
		}
	}
}
