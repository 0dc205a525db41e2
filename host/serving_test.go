package host

import (
	"context"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"folio/pipeline"
)

// A serving host runs as folio serve runs it, behind a test HTTP server,
// until the test ends; the test sends it SIGHUP on hup and waits for
// each change it makes with applied.
type serving struct {
	h       *Host
	url     string
	hup     chan os.Signal
	swapped chan *pipeline.Snapshot
}

// startServing loads spec (its Swapped replaced) and runs it.
func startServing(t *testing.T, spec Spec) *serving {
	t.Helper()
	s := &serving{hup: make(chan os.Signal, 1), swapped: make(chan *pipeline.Snapshot, 10)}
	spec.Swapped = func(snap *pipeline.Snapshot) { s.swapped <- snap }
	s.h = loadUnrun(t, spec)
	ts := httptest.NewServer(s.h.Server())
	s.url = ts.URL
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); s.h.Run(ctx, s.hup) }()
	t.Cleanup(func() {
		cancel()
		<-done
		ts.Close()
	})
	return s
}

// applied waits for the next snapshot the host swaps in (it is told just
// before it is made current) and for it to be current, and returns it.
func (s *serving) applied(t *testing.T) *pipeline.Snapshot {
	t.Helper()
	var next *pipeline.Snapshot
	select {
	case next = <-s.swapped:
	case <-time.After(devWait):
		t.Fatal("the change was not applied")
	}
	for deadline := time.Now().Add(devWait); s.h.Snapshot() != next; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the change was not made current")
		}
	}
	return next
}
