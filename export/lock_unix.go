//go:build unix

package export

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// lockDir takes an exclusive lock on the folder dir, waiting for another
// build that holds it when wait is set. The system drops the lock when the
// process dies, so a killed build never leaves it held. Where the file
// system has no locks (some network mounts), or another holds it and wait
// is not set, it goes on unlocked and says so.
func lockDir(dir string, wait bool) (unlock func(), locked bool, err error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, false, err
	}
	how := unix.LOCK_EX
	if !wait {
		how |= unix.LOCK_NB
	}
	for {
		err = unix.Flock(int(f.Fd()), how)
		if !errors.Is(err, unix.EINTR) {
			break
		}
	}
	switch {
	case err == nil:
		return func() { f.Close() }, true, nil
	case errors.Is(err, unix.ENOLCK), errors.Is(err, unix.EOPNOTSUPP), errors.Is(err, unix.EWOULDBLOCK):
		f.Close()
		return func() {}, false, nil
	}
	f.Close()
	return nil, false, err
}
