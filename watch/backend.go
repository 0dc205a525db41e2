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

// notify is the fsnotify backend.
type notify struct{ w *fsnotify.Watcher }

func newNotify() (backend, error) {
	w, err := fsnotify.NewWatcher()
	if err != nil {
		if errors.Is(err, syscall.EMFILE) && runtime.GOOS == "linux" {
			return nil, fmt.Errorf("watch: start inotify: %w (too many inotify instances: raise fs.inotify.max_user_instances)", err)
		}
		return nil, fmt.Errorf("watch: start file notifications: %w", err)
	}
	return notify{w}, nil
}

func (n notify) Add(dir string) error          { return n.w.Add(dir) }
func (n notify) Remove(dir string) error       { return n.w.Remove(dir) }
func (n notify) Events() <-chan fsnotify.Event { return n.w.Events }
func (n notify) Errors() <-chan error          { return n.w.Errors }
func (n notify) Close() error                  { return n.w.Close() }

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
