package host

import (
	"errors"
	"io/fs"
	"sync/atomic"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 is found missing (Linux before 5.6) or
// forbidden (a seccomp filter): every read then goes the usual way.
var noOpenat2 atomic.Bool

// ReadSmallFile opens name with openat2 beneath the root folder
// (RESOLVE_BENEATH: the kernel refuses a path or link that leads out of
// it, as the os.Root does), stats it, and reads it whole in one read
// when it is a regular file of at most max bytes. Anything else (an
// error, a link the kernel will not resolve beneath, a larger or special
// file) is ok false, and the pipeline reads through the os.Root, which
// says why. O_NONBLOCK keeps the open of a FIFO from waiting.
func (c contentFS) ReadSmallFile(name string, max int64) (data []byte, ok bool) {
	if c.dir == nil || noOpenat2.Load() || !fs.ValidPath(name) {
		return nil, false
	}
	raw, err := c.dir.SyscallConn()
	if err != nil {
		return nil, false
	}
	raw.Control(func(dirfd uintptr) {
		data, ok = readBeneath(int(dirfd), name, max)
	})
	return data, ok
}

func readBeneath(dirfd int, name string, max int64) ([]byte, bool) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NONBLOCK | unix.O_NOCTTY,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	var fd int
	var err error
	for {
		fd, err = unix.Openat2(dirfd, name, &how)
		if err != unix.EINTR {
			break
		}
	}
	if err != nil {
		if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
			noOpenat2.Store(true)
		}
		return nil, false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG || st.Size > max {
		return nil, false
	}
	// Read to the size the stat gave: a regular file's read returns less
	// only at its end, which a zero-length read would only confirm.
	buf := make([]byte, st.Size)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if m == 0 {
			break // shortened since the stat
		}
		n += m
	}
	return buf[:n], true
}
