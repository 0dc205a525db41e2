package front

import (
	"errors"
	"io"
	"os"
	"runtime"
	"syscall"

	"golang.org/x/sys/unix"
)

// sendSection sends what is left of r to conn with sendfile(2) when r is
// a section of an *os.File (a large prepared body kept in a memfd by
// package server): the kernel copies from the file's pages, not from the
// heap through write(2). It reads at explicit offsets, so requests sharing
// the file never move its offset. handled is false when r is not such a
// section or conn has no file descriptor.
func sendSection(conn io.Writer, r io.Reader) (n int64, err error, handled bool) {
	sr, ok := r.(*io.SectionReader)
	if !ok {
		return 0, nil, false
	}
	at, base, size := sr.Outer()
	f, ok := at.(*os.File)
	sc, ok2 := conn.(syscall.Conn)
	if !ok || !ok2 {
		return 0, nil, false
	}
	rc, err := sc.SyscallConn()
	if err != nil {
		return 0, nil, false
	}
	fc, err := f.SyscallConn()
	if err != nil {
		return 0, nil, false
	}
	cur, err := sr.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0, nil, false
	}
	off, left := base+cur, size-cur
	var src int
	if err := fc.Control(func(fd uintptr) { src = int(fd) }); err != nil {
		return 0, nil, false
	}
	var werr error
	err = rc.Write(func(dst uintptr) bool {
		for left > 0 {
			m, e := unix.Sendfile(int(dst), src, &off, int(min(left, 1<<30)))
			if m > 0 {
				n += int64(m)
				left -= int64(m)
			}
			switch {
			case errors.Is(e, unix.EAGAIN):
				return false // wait until the socket takes more
			case errors.Is(e, unix.EINTR):
			case e != nil:
				werr = e
				return true
			case m == 0:
				werr = io.ErrUnexpectedEOF // the file is shorter than its section
				return true
			}
		}
		return true
	})
	runtime.KeepAlive(f)
	sr.Seek(n, io.SeekCurrent)
	if err == nil {
		err = werr
	}
	return n, err, true
}
