package front

import (
	"bytes"
	"io"
	"strconv"
	"sync"
	"time"
)

// LogBuffer is how many bytes of log lines a LogWriter holds while its
// writer does not take them: some ten thousand access lines.
const LogBuffer = 1 << 20

// A LogWriter writes log lines to w from a goroutine of its own, so that
// logging never blocks serving: a w that stops taking bytes (a terminal
// paused, a pipe nobody reads, a full disk under a redirect) would
// otherwise stop every request that logs, /healthz included. Lines wait
// in a buffer of at most max bytes; when it is full, a line is dropped
// and counted, and once w takes lines again a warning line says how many
// were lost. Each Write is one line (log/slog writes a record so); Write
// never fails and never waits on w. (A Write of several lines, from a
// buffer above it, counts them all.)
type LogWriter struct {
	w   io.Writer
	max int

	mu           sync.Mutex
	buf          []byte // lines waiting for w
	dropped      int    // lines dropped since the last warning
	droppedBytes int
	closed       bool
	wake         chan struct{} // a line is waiting
	done         chan struct{} // the goroutine has ended
}

// NewLogWriter returns a LogWriter of w holding at most max bytes.
func NewLogWriter(w io.Writer, max int) *LogWriter {
	l := &LogWriter{w: w, max: max, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go l.run()
	return l
}

// Write queues p, or drops it when the buffer cannot hold it.
func (l *LogWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	switch {
	case l.closed:
	case len(l.buf)+len(p) > l.max:
		l.dropped += max(bytes.Count(p, newline), 1)
		l.droppedBytes += len(p)
	default:
		l.buf = append(l.buf, p...)
	}
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	return len(p), nil
}

// run writes what waits, one write per batch, then says what was
// dropped before the batch was taken.
func (l *LogWriter) run() {
	defer close(l.done)
	var batch []byte
	for range l.wake {
		l.mu.Lock()
		batch, l.buf = l.buf, batch[:0]
		dropped, size := l.dropped, l.droppedBytes
		l.dropped, l.droppedBytes = 0, 0
		closed := l.closed
		l.mu.Unlock()
		if len(batch) > 0 {
			l.w.Write(batch)
		}
		if dropped > 0 {
			l.w.Write(droppedLine(time.Now(), dropped, size))
		}
		if closed {
			return
		}
	}
}

var newline = []byte{'\n'}

// droppedLine is the warning, in log/slog's text format as every line.
func droppedLine(t time.Time, lines, bytes int) []byte {
	b := []byte("time=")
	b = t.Truncate(time.Millisecond).AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, ` level=WARN msg="log lines dropped: stderr was not taking them" lines=`...)
	b = strconv.AppendInt(b, int64(lines), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, int64(bytes), 10)
	return append(b, '\n')
}

// Close writes what waits and stops, giving w at most wait to take it (a
// w that never does must not hold the process's exit). Later writes are
// dropped.
func (l *LogWriter) Close(wait time.Duration) {
	l.mu.Lock()
	if l.closed {
		l.mu.Unlock()
		return
	}
	l.closed = true
	l.mu.Unlock()
	select {
	case l.wake <- struct{}{}:
	default:
	}
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case <-l.done:
	case <-t.C:
	}
}
