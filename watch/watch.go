package watch

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options tune a Watcher; the zero value means the defaults.
type Options struct {
	// Quiet is the silence after which a burst of events is delivered
	// (default 10ms). A long burst needs a longer silence: Quiet plus half
	// the burst's length so far, at most 20 Quiet.
	Quiet time.Duration
	// MaxDelay is the longest a burst that never falls silent is held
	// before it is delivered anyway (default 5s).
	MaxDelay time.Duration
	// Poll is how often folders that cannot be watched (a watch limit was
	// reached, or a root folder disappeared) are looked at instead
	// (default 1s).
	Poll time.Duration
	// Ignore reports whether a slash-separated path relative to a folder
	// root is noise: ignored paths never appear in a batch and ignored
	// folders are not watched (default DefaultIgnore).
	Ignore func(rel string) bool
	// Logger receives the warnings: lost events, watch limits (default
	// slog.Default()).
	Logger *slog.Logger
}

func (o Options) withDefaults() Options {
	if o.Quiet <= 0 {
		o.Quiet = 10 * time.Millisecond
	}
	if o.MaxDelay <= 0 {
		o.MaxDelay = 5 * time.Second
	}
	if o.Poll <= 0 {
		o.Poll = time.Second
	}
	if o.Ignore == nil {
		o.Ignore = DefaultIgnore
	}
	if o.Logger == nil {
		o.Logger = slog.Default()
	}
	return o
}

// A Batch is what changed under one root during one burst.
type Batch struct {
	// Root is the root as given to New.
	Root string
	// Paths are the changed paths (created, written, removed or renamed
	// away), slash-separated and relative to Root, sorted and without
	// duplicates. A folder stands for everything inside it, which is then
	// not listed: it was created, moved or removed as a whole, and must be
	// read again whole. For a file root Paths is ["."].
	Paths []string
	// Rescan means events were lost or the root folder itself went away
	// or came back: read the whole root again. Paths is then empty.
	Rescan bool
}

// A Watcher delivers the changes under its roots in batches. See the
// package documentation for the design.
type Watcher struct {
	opts  Options
	log   *slog.Logger
	b     backend
	roots []*root

	dirs    map[string]bool    // watched folders, absolute
	polled  map[string]*polled // folders looked at every Poll instead
	limited []limitHit         // folders that just hit a watch limit
	started bool

	burst burst   // changes of the burst in progress
	ready pending // ended bursts the consumer has not taken yet
	offer []Batch // ready, rendered; nil when there is nothing to deliver

	out       chan []Batch
	done      chan struct{}
	exited    chan struct{}
	closeOnce sync.Once
	closeErr  error
}

type limitHit struct {
	dir string
	err error
}

// New watches roots: folders, with every folder below them, and files,
// whose folder alone is watched and filtered to that file. Every root must
// exist. Call Close to stop.
func New(roots []string, opts Options) (*Watcher, error) {
	b, err := newNotify()
	if err != nil {
		return nil, err
	}
	w, err := newWatcher(roots, opts, b)
	if err != nil {
		b.Close()
		return nil, err
	}
	return w, nil
}

func newWatcher(roots []string, opts Options, b backend) (*Watcher, error) {
	if len(roots) == 0 {
		return nil, errors.New("watch: no folder to watch")
	}
	opts = opts.withDefaults()
	w := &Watcher{
		opts: opts, log: opts.Logger, b: b,
		dirs: map[string]bool{}, polled: map[string]*polled{},
		burst: newBurst(len(roots)), ready: newPending(len(roots)),
		out: make(chan []Batch), done: make(chan struct{}), exited: make(chan struct{}),
	}
	for _, given := range roots {
		r, err := newRoot(given)
		if err != nil {
			return nil, err
		}
		w.roots = append(w.roots, r)
	}
	for _, r := range w.roots {
		if err := w.add(r.dir); err != nil && !isLimit(err) {
			return nil, fmt.Errorf("watch: %s: %w", r.dir, err)
		}
		if !r.file {
			w.watchTree(r.abs)
		}
	}
	w.reportLimits(time.Now())
	w.started = true
	go w.run()
	return w, nil
}

// Batches delivers one slice per burst, with one Batch for each root that
// changed, in the order of the roots given to New: a git checkout that
// touches the content and the site folder is one delivery. Bursts that
// end while the previous delivery has not been taken are merged into it.
// The channel is closed by Close.
func (w *Watcher) Batches() <-chan []Batch { return w.out }

// Close stops watching and closes the Batches channel.
func (w *Watcher) Close() error {
	w.closeOnce.Do(func() {
		close(w.done)
		<-w.exited
		w.closeErr = w.b.Close()
	})
	return w.closeErr
}

// run owns all of the Watcher's state: events, timers and the delivery
// are handled one at a time.
func (w *Watcher) run() {
	defer close(w.exited)
	defer close(w.out)
	flush := time.NewTimer(time.Hour)
	flush.Stop()
	var ticker *time.Ticker
	defer func() {
		if ticker != nil {
			ticker.Stop()
		}
	}()
	for {
		switch {
		case len(w.polled) > 0 && ticker == nil:
			ticker = time.NewTicker(w.opts.Poll)
		case len(w.polled) == 0 && ticker != nil:
			ticker.Stop()
			ticker = nil
		}
		var out chan<- []Batch
		if w.offer != nil {
			out = w.out
		}
		var flushC, pollC <-chan time.Time
		if !w.burst.empty() {
			flushC = flush.C
		}
		if ticker != nil {
			pollC = ticker.C
		}
		select {
		case <-w.done:
			return
		case ev, ok := <-w.b.Events():
			if !ok {
				return
			}
			w.handle(ev, time.Now())
		case err, ok := <-w.b.Errors():
			if !ok {
				return
			}
			w.eventsLost(err, time.Now())
		case now := <-flushC:
			// An event already waiting belongs to this burst: this
			// goroutine was late, not the writer.
			if !w.takeWaiting() && !now.Before(w.burst.deadline(w.opts)) {
				w.flush()
			}
		case now := <-pollC:
			w.pollAll(now)
		case out <- w.offer:
			w.offer, w.ready = nil, newPending(len(w.roots))
		}
		w.reportLimits(time.Now())
		if !w.burst.empty() {
			flush.Reset(time.Until(w.burst.deadline(w.opts)))
		}
	}
}

// takeWaiting handles an event that is ready to be received, if any.
func (w *Watcher) takeWaiting() bool {
	select {
	case ev, ok := <-w.b.Events():
		if ok {
			w.handle(ev, time.Now())
		}
		return ok
	default:
		return false
	}
}

// flush ends the burst in progress.
func (w *Watcher) flush() {
	w.ready.merge(&w.burst, w.roots)
	w.burst = newBurst(len(w.roots))
	w.offer = w.ready.batches(w.roots)
}

// handle takes one event: it keeps the watches in step with the folders
// and notes the change.
func (w *Watcher) handle(ev fsnotify.Event, now time.Time) {
	if ev.Op&^fsnotify.Chmod == 0 {
		return // attributes only (also sent before a removal): content unchanged
	}
	name := filepath.Clean(ev.Name)
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		w.removed(name)
	}
	created := ev.Has(fsnotify.Create)
	if created {
		// Whatever was watched under this name before is gone (a folder
		// renamed over an empty one sends no event of its own).
		w.unwatchTree(name)
		w.created(name)
	}
	w.note(name, created, now)
}

// note records a change of name for every root that reports it.
func (w *Watcher) note(name string, created bool, now time.Time) {
	for i, r := range w.roots {
		rel, ok := r.rel(name, w.opts.Ignore)
		switch {
		case !ok:
		case rel == "." && !r.file:
			w.burst.rescanRoot(i, now)
		default:
			w.burst.add(i, rel, created, now)
		}
	}
}

// removed drops the watches of a folder that was removed or renamed away;
// a root folder that goes is polled until it is back.
func (w *Watcher) removed(name string) {
	w.unwatchTree(name)
	for _, r := range w.roots {
		if r.dir == name && !r.lost {
			r.lost = true
			w.polled[r.dir] = &polled{}
			w.log.Warn("watch: a watched folder was removed or renamed; waiting for it to come back", "dir", r.dir)
		}
	}
}

// created watches a new folder and everything already inside it: files
// made before the watch was in place send no event, so the folder itself
// is reported and read again whole.
func (w *Watcher) created(name string) {
	for _, r := range w.roots {
		if r.lost && r.dir == name && isDir(name, true) {
			r.lost = false
			delete(w.polled, r.dir)
			w.log.Info("watch: watched folder is back", "dir", r.dir)
		}
	}
	// Symbolic links are not followed below a root (the pipeline does not
	// follow them either), but a root may be one.
	if isDir(name, w.isRootDir(name)) && w.wanted(name) {
		w.watchTree(name)
	}
	for _, r := range w.roots {
		if r.file && r.dir == name && !r.lost {
			w.add(r.dir)
		}
	}
}

// eventsLost handles an error from the notifications: the queue overflowed
// (or worse), so changes were missed. Everything is watched afresh and
// every root read again.
func (w *Watcher) eventsLost(err error, now time.Time) {
	if errors.Is(err, fsnotify.ErrEventOverflow) {
		w.log.Warn("watch: too many changes at once, the kernel's event queue overflowed and events were lost; " +
			"rescanning everything (if this repeats, raise fs.inotify.max_queued_events, e.g. sudo sysctl fs.inotify.max_queued_events=65536)")
	} else {
		w.log.Warn("watch: file notifications failed; rescanning everything", "err", err)
	}
	w.resync()
	for i := range w.roots {
		w.burst.rescanRoot(i, now)
	}
}

// reportLimits logs the folders that just hit a watch limit, once, and
// after start has their roots read again.
func (w *Watcher) reportLimits(now time.Time) {
	if len(w.limited) == 0 {
		return
	}
	first := w.limited[0]
	w.log.Warn(fmt.Sprintf("watch: cannot watch %d folder(s) (first: %s): %s; until then they are polled every %s, which is slower",
		len(w.limited), first.dir, limitAdvice(first.err), w.opts.Poll), "err", first.err)
	if w.started {
		for i, r := range w.roots {
			for _, hit := range w.limited {
				if hit.dir == r.dir || !r.file && within(hit.dir, r.abs) {
					w.burst.rescanRoot(i, now)
					break
				}
			}
		}
	}
	w.limited = nil
}

func isDir(name string, follow bool) bool {
	stat := os.Lstat
	if follow {
		stat = os.Stat
	}
	info, err := stat(name)
	return err == nil && info.IsDir()
}
