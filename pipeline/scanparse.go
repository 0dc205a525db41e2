package pipeline

import (
	"iter"
	"runtime"
	"sync"
	"time"
)

// scanAndParse is scanContent with each unit read and parsed as soon as
// the walk finds it, on GOMAXPROCS workers, rather than after the whole
// walk: at 100,000 posts the walk takes 0.5-0.8 s of one core, which the
// parse now overlaps. The workers start once the parse cache is known
// (Options.CacheFunc, read beside the walk), which they need; the walk
// queues what it finds meanwhile. units yields each key found (once, in
// whichever mount first) with its unit, nil for a file gone since; each
// worker keeps its own list, so that the caller makes the one map.
func (s *Snapshot) scanAndParse(began time.Time) (found scanned, units iter.Seq2[string, *unit], err error) {
	q := &unitQueue{}
	q.more.L = &q.mu
	lists := make([][]keyUnit, runtime.GOMAXPROCS(0))
	// Only the goroutine below touches s.opts until parsed is closed: the
	// walk is told now whether a cache will want the stamps. An empty one
	// (a first start) does not: its reads give them (readUnit).
	withStamps := !s.opts.Cache.empty() || s.opts.CacheFunc != nil
	parsed := make(chan struct{})
	go func() {
		defer close(parsed)
		if f := s.opts.CacheFunc; f != nil {
			s.opts.Cache, s.opts.CacheFunc = f(), nil
		}
		if c := s.opts.Cache; c != nil && c.began.IsZero() {
			c.began = began
		}
		var wg sync.WaitGroup
		keep := make([]interned, len(lists))
		for i := range lists {
			wg.Go(func() {
				for {
					ks, ok := q.take()
					if !ok {
						return
					}
					lists[i] = append(lists[i], keyUnit{ks.key, s.readCompact(ks.key, nil, true, ks.stamp, &keep[i])})
				}
			})
		}
		wg.Wait()
		runtime.KeepAlive(keep) // every worker's, until all are done
	}()
	seen := map[string]bool{}
	found, err = s.scanContent(func(key string, stamp fileStamp) {
		if !seen[key] {
			seen[key] = true
			q.put(keyStamp{key, stamp})
		}
	}, withStamps)
	q.close()
	<-parsed
	units = func(yield func(string, *unit) bool) {
		for _, list := range lists {
			for _, ku := range list {
				if !yield(ku.key, ku.u) {
					return
				}
			}
		}
	}
	return found, units, err
}

// keyUnit is a unit a worker read, by its key.
type keyUnit struct {
	key string
	u   *unit
}

// unitQueue is the keys a walk found, not yet taken by a worker: it
// grows without bound, so that the walk never waits for the workers
// (which wait for the parse cache first).
type unitQueue struct {
	mu     sync.Mutex
	more   sync.Cond
	keys   []keyStamp
	closed bool
}

func (q *unitQueue) put(ks keyStamp) {
	q.mu.Lock()
	q.keys = append(q.keys, ks)
	q.mu.Unlock()
	q.more.Signal()
}

func (q *unitQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.mu.Unlock()
	q.more.Broadcast()
}

// take returns the next key, waiting for one; ok is false once the walk
// ended and every key was taken.
func (q *unitQueue) take() (ks keyStamp, ok bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.keys) == 0 && !q.closed {
		q.more.Wait()
	}
	if len(q.keys) == 0 {
		return keyStamp{}, false
	}
	ks = q.keys[0]
	q.keys = q.keys[1:]
	return ks, true
}
