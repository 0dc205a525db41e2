package pipeline

import (
	"runtime"
	"sync"
	"time"
)

// scanAndParse is scanContent with each unit read and parsed as soon as
// the walk finds it, on GOMAXPROCS workers, rather than after the whole
// walk: at 100,000 posts the walk takes 0.5-0.8 s of one core, which the
// parse now overlaps. The workers start once the parse cache is known
// (Options.CacheFunc, read beside the walk), which they need; the walk
// queues what it finds meanwhile. units maps each key found (once, in
// whichever mount first) to its unit, nil for a file gone since.
func (s *Snapshot) scanAndParse(began time.Time) (found scanned, units map[string]*unit, err error) {
	q := &unitQueue{}
	q.more.L = &q.mu
	units = make(map[string]*unit)
	var mu sync.Mutex
	parsed := make(chan struct{})
	go func() {
		defer close(parsed)
		// Only this goroutine touches s.opts until parsed is closed: the
		// walk decided on stamps before it started.
		if f := s.opts.CacheFunc; f != nil {
			s.opts.Cache, s.opts.CacheFunc = f(), nil
		}
		if c := s.opts.Cache; c != nil && c.began.IsZero() {
			c.began = began
		}
		var wg sync.WaitGroup
		for range runtime.GOMAXPROCS(0) {
			wg.Go(func() {
				for {
					ks, ok := q.take()
					if !ok {
						return
					}
					u := s.readCompact(ks.key, nil, true, ks.stamp)
					mu.Lock()
					units[ks.key] = u
					mu.Unlock()
				}
			})
		}
		wg.Wait()
	}()
	seen := map[string]bool{}
	found, err = s.scanContent(func(key string, stamp fileStamp) {
		if !seen[key] {
			seen[key] = true
			q.put(keyStamp{key, stamp})
		}
	})
	q.close()
	<-parsed
	return found, units, err
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
