package watch

import (
	"fmt"
	"log/slog"
	"path/filepath"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

// Options tune a Watcher; the zero value means the defaults.
type Options struct {
	// Quiet is the silence after which a burst of events is delivered
	// (default 4ms). A long burst needs a longer silence: Quiet plus half
	// the burst's length so far, at most 200ms (or 20 Quiet if longer); a
	// burst that leaves a file removed or renamed away, 20ms at least.
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
	// Hold names files, by path, whose existence keeps a burst open: while
	// one exists (for at most MaxDelay) the burst is not delivered, and
	// when it goes, the burst ends a Quiet later. folio dev holds for git's
	// index.lock, so a checkout is one delivery however long git pauses
	// between files. A hold's folder is watched by itself; its events are
	// not reported unless a root reports them.
	Hold []string

	// SyncDir and Synced are for tests (a program leaves them unset).
	// SyncDir is a folder, watched by itself, in which a file created
	// ends the burst in progress, after the polled folders are looked at;
	// the Watcher then sends on Synced whether a delivery waits. Bursts
	// never end on their own (no Quiet, no MaxDelay, no Poll ticks): the
	// test decides where one ends, so what is delivered does not depend on
	// how the scheduler spaced the test's writes. The kernel queues the
	// events of all watches in one queue, in order, so every change made
	// before the file was created is in the burst.
	SyncDir string
	Synced  chan bool
}

func (o Options) withDefaults() Options {
	if o.Quiet <= 0 {
		o.Quiet = 4 * time.Millisecond
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
	// Root is the root's path as given to New or NewRoots.
	Root string
	// Index is the root's position in the list given to New or NewRoots:
	// two roots may share a path (a folder root and a names-only root on
	// the same folder), and Root alone does not tell them apart.
	Index int
	// Paths are the changed paths (created, written, removed or renamed
	// away), slash-separated and relative to Root, sorted and without
	// duplicates. A folder stands for everything inside it, which is then
	// not listed: it was created, moved or removed as a whole, and must be
	// read again whole. For a file root Paths is ["."]: any Batch for a
	// file root means "read the file again". For a names-only root Paths
	// are the names that changed.
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

	dirs    map[string]fileID  // watched folders, absolute
	ids     map[fileID]string  // the same, by identity
	polled  map[string]*polled // folders looked at every Poll instead
	limited []limitHit         // folders that just hit a watch limit
	started bool
	holds   []*hold

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
	rs := make([]Root, len(roots))
	for i, r := range roots {
		rs[i] = Root{Path: r}
	}
	return NewRoots(rs, opts)
}

// NewRoots is New for roots of any kind (see Root), among them names-only
// roots. Every root's path must exist. Call Close to stop.
func NewRoots(roots []Root, opts Options) (*Watcher, error) {
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

func newWatcher(roots []Root, opts Options, b backend) (*Watcher, error) {
	if len(roots) == 0 {
		return nil, errNoRoot
	}
	opts = opts.withDefaults()
	w := &Watcher{
		opts: opts, log: opts.Logger, b: b,
		dirs: map[string]fileID{}, ids: map[fileID]string{}, polled: map[string]*polled{},
		burst: newBurst(len(roots)), ready: newPending(len(roots)),
		out: make(chan []Batch), done: make(chan struct{}), exited: make(chan struct{}),
	}
	if opts.SyncDir != "" {
		if err := b.Add(opts.SyncDir); err != nil {
			return nil, fmt.Errorf("watch: %s: %w", opts.SyncDir, err)
		}
	}
	if opts.SyncDir == "" { // a test that ends its own bursts holds nothing
		for _, p := range opts.Hold {
			abs, err := filepath.Abs(p)
			if err != nil {
				return nil, fmt.Errorf("watch: %s: %w", p, err)
			}
			w.holds = append(w.holds, &hold{path: abs})
		}
		w.watchHolds()
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
		if !r.flat() {
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
// touches the content folder, the site folder and the config file is one
// delivery, whatever the kinds of their roots. Bursts that
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
	var t timers
	defer t.stop()
	for {
		t.update(w)
		if !w.step(&t) {
			return
		}
		w.reportLimits(time.Now())
	}
}

// step waits for one thing to happen and handles it; false when the
// Watcher is done.
func (w *Watcher) step(t *timers) bool {
	var out chan<- []Batch
	if w.offer != nil {
		out = w.out
	}
	select {
	case <-w.done:
		return false
	case ev, ok := <-w.b.Events():
		if !ok {
			return false
		}
		if w.opts.SyncDir != "" && filepath.Dir(ev.Name) == w.opts.SyncDir {
			if ev.Has(fsnotify.Create) {
				w.syncNow(time.Now())
			}
			return true
		}
		now := time.Now()
		w.holdEvent(ev, now)
		w.handle(ev, now)
	case err, ok := <-w.b.Errors():
		if !ok {
			return false
		}
		w.eventsLost(err, time.Now())
	case now := <-t.flushC(w):
		// An event already waiting belongs to this burst: this goroutine
		// was late, not the writer.
		if !w.takeWaiting() && !now.Before(w.deadline(now)) {
			w.flush()
		}
	case now := <-t.pollC():
		w.pollAll(now)
	case out <- w.offer:
		w.offer, w.ready = nil, newPending(len(w.roots))
	}
	return true
}

// timers are the end of the burst in progress and, while some folder is
// polled, the poll ticker.
type timers struct {
	flush *time.Timer
	poll  *time.Ticker
}

func (t *timers) update(w *Watcher) {
	if w.opts.SyncDir != "" {
		return // the test ends the bursts and polls
	}
	if !w.burst.empty() {
		wait := time.Until(w.deadline(time.Now()))
		if t.flush == nil {
			t.flush = time.NewTimer(wait)
		} else {
			t.flush.Reset(wait)
		}
	}
	switch {
	case len(w.polled) > 0 && t.poll == nil:
		t.poll = time.NewTicker(w.opts.Poll)
	case len(w.polled) == 0 && t.poll != nil:
		t.poll.Stop()
		t.poll = nil
	}
}

// flushC is the flush timer's channel while a burst is in progress, nil
// (never ready) otherwise.
func (t *timers) flushC(w *Watcher) <-chan time.Time {
	if w.burst.empty() || t.flush == nil {
		return nil
	}
	return t.flush.C
}

func (t *timers) pollC() <-chan time.Time {
	if t.poll == nil {
		return nil
	}
	return t.poll.C
}

func (t *timers) stop() {
	if t.flush != nil {
		t.flush.Stop()
	}
	if t.poll != nil {
		t.poll.Stop()
	}
}

// takeWaiting handles an event that is ready to be received, if any.
func (w *Watcher) takeWaiting() bool {
	select {
	case ev, ok := <-w.b.Events():
		if ok {
			now := time.Now()
			w.holdEvent(ev, now)
			w.handle(ev, now)
		}
		return ok
	default:
		return false
	}
}

// syncNow is Options.SyncDir's end of a burst: the polled folders are looked
// at, what they found noted, the burst delivered, and the test told
// whether a delivery waits.
func (w *Watcher) syncNow(now time.Time) {
	w.pollAll(now)
	w.reportLimits(now)
	if !w.burst.empty() {
		w.flush()
	}
	select {
	case w.opts.Synced <- w.offer != nil:
	case <-w.done:
	}
}

// flush ends the burst in progress.
func (w *Watcher) flush() {
	w.ready.merge(&w.burst, w.roots)
	w.burst = newBurst(len(w.roots))
	w.offer = w.ready.batches(w.roots)
}
