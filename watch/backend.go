package watch

import (
	"errors"
	"fmt"
	"runtime"
	"syscall"

	"github.com/fsnotify/fsnotify"
)

// backend is the part of fsnotify the Watcher uses. Tests wrap the real one
// to inject errors (an event-queue overflow, a watch limit) that a test
// cannot make the kernel produce on demand.
type backend interface {
	Add(dir string) error
	Remove(dir string) error
	Events() <-chan fsnotify.Event
	Errors() <-chan error
	Close() error
}

// notify is the fsnotify backend. Its errors reach the Watcher through
// errs (see forwardErrors), never straight from fsnotify.
type notify struct {
	w    *fsnotify.Watcher
	errs chan error
}

func newNotify() (backend, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		if errors.Is(err, syscall.EMFILE) && runtime.GOOS == "linux" {
			return nil, fmt.Errorf("watch: start inotify: %w (too many inotify instances: raise fs.inotify.max_user_instances)", err)
		}
		return nil, fmt.Errorf("watch: start file notifications: %w", err)
	}
	n := notify{w: w, errs: make(chan error, pendingErrors)}
	go forwardErrors(w.Errors, n.errs)
	return n, nil
}

func (n notify) Add(dir string) error          { return n.w.Add(dir) }
func (n notify) Remove(dir string) error       { return n.w.Remove(dir) }
func (n notify) Events() <-chan fsnotify.Event { return n.w.Events }
func (n notify) Errors() <-chan error          { return n.errs }
func (n notify) Close() error                  { return n.w.Close() }

// pendingErrors is how many errors wait for the Watcher; more are
// dropped: each one makes the Watcher rescan every root, and one waiting
// already does.
const pendingErrors = 16

// forwardErrors takes each error from src as soon as it is sent and
// hands it on to dst without ever waiting, and closes dst when src
// closes. fsnotify 1.10 sends some errors while it holds the lock its
// Add and Remove take (a watched folder moved and its watch already gone
// from the kernel): the Watcher, which reads the errors on the goroutine
// that calls Remove, then waited for itself forever (once in a few dozen
// runs of TestConverge under load).
func forwardErrors(src <-chan error, dst chan<- error) {
	defer close(dst)
	for err := range src {
		select {
		case dst <- err:
		default:
		}
	}
}

// isLimit reports whether err from Add means a watch limit is reached:
// inotify's ENOSPC (fs.inotify.max_user_watches), or running out of file
// descriptors where every watch holds one (kqueue).
func isLimit(err error) bool {
	return errors.Is(err, syscall.ENOSPC) || errors.Is(err, syscall.EMFILE) || errors.Is(err, syscall.ENFILE)
}

// limitAdvice says how to raise the limit isLimit detected.
func limitAdvice(err error) string {
	if errors.Is(err, syscall.ENOSPC) {
		return "the inotify watch limit is reached; raise it, e.g. sudo sysctl fs.inotify.max_user_watches=524288"
	}
	return "the open-file limit is reached; raise it, e.g. ulimit -n 65536"
}

var errNotDir error = syscall.ENOTDIR
