package front

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// stalled is a writer that takes nothing until released, as stderr does
// when the pipe behind it is full and nobody reads it.
type stalled struct {
	mu      sync.Mutex
	release chan struct{}
	out     bytes.Buffer
}

func (s *stalled) Write(p []byte) (int, error) {
	<-s.release
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.Write(p)
}

func (s *stalled) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// TestLogWriterNeverBlocks (issue 15, finding 13): while the writer takes
// nothing, 100,000 lines from 8 goroutines are each written (or dropped)
// without waiting; once it takes lines again, it gets the lines that fit
// the buffer, in order, then one warning saying how many were dropped, and
// the two add up. Lines written after that go through as before.
func TestLogWriterNeverBlocks(t *testing.T) {
	w := &stalled{release: make(chan struct{})}
	const size = 64 << 10
	l := NewLogWriter(w, size)
	const writers, each = 8, 12_500
	var wg sync.WaitGroup
	for g := range writers {
		wg.Go(func() {
			for i := range each {
				l.Write(fmt.Appendf(nil, "time=x level=INFO msg=request g=%d i=%05d\n", g, i))
			}
		})
	}
	wg.Wait() // returns: no Write waited on the stalled writer
	close(w.release)
	warn := regexp.MustCompile(`(?m)^time=\S+ level=WARN msg="log lines dropped: stderr was not taking them" lines=(\d+) bytes=(\d+)$`)
	count := func(out string) (kept, dropped int) {
		for _, m := range warn.FindAllStringSubmatch(out, -1) {
			n, _ := strconv.Atoi(m[1])
			dropped += n
		}
		return strings.Count(out, "msg=request"), dropped
	}
	// Once every line is written or counted, the buffer is empty.
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(time.Millisecond) {
		if k, d := count(w.String()); k+d == writers*each {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the writer never caught up")
		}
	}
	l.Write([]byte("after\n"))
	l.Close(time.Minute)

	out := w.String()
	kept, dropped := count(out)
	last := map[int]int{}
	for _, line := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if warn.MatchString(line) || line == "after" {
			continue
		}
		var g, i int
		if _, err := fmt.Sscanf(line, "time=x level=INFO msg=request g=%d i=%d", &g, &i); err != nil {
			t.Fatalf("a line came out torn: %q", line)
		}
		if prev, ok := last[g]; ok && i <= prev {
			t.Errorf("goroutine %d's lines out of order: %d after %d", g, i, prev)
		}
		last[g] = i
	}
	if kept+dropped != writers*each || dropped == 0 || kept == 0 {
		t.Errorf("%d lines kept and %d dropped, want %d in all, some of each", kept, dropped, writers*each)
	}
	if !strings.HasSuffix(out, "after\n") {
		t.Errorf("the line written after the stall did not come last: %q", out[max(0, len(out)-400):])
	}
	t.Logf("%d lines kept, %d dropped and counted while the writer was stalled", kept, dropped)
}

// TestLogWriterCloseDoesNotHang: a writer stalled for good does not keep
// Close (the process's exit) waiting longer than it allows.
func TestLogWriterCloseDoesNotHang(t *testing.T) {
	w := &stalled{release: make(chan struct{})}
	defer close(w.release)
	l := NewLogWriter(w, 1<<10)
	l.Write([]byte("one\n"))
	done := make(chan struct{})
	go func() { l.Close(10 * time.Millisecond); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
		t.Fatal("Close waited on a stalled writer")
	}
	if n, err := l.Write([]byte("late\n")); n != 5 || err != nil {
		t.Errorf("Write after Close: %d, %v", n, err)
	}
}
