package front

import (
	"bufio"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"
)

// accessLog writes one structured line per request to w after it is
// answered: method, path, status, body bytes written, duration and the
// peer's address (behind a proxy, the proxy's; folio trusts no forwarding
// header). The line is log/slog's text format, made by hand: going
// through slog cost a tenth of the CPU of answering a small page.
func accessLog(next http.Handler, w io.Writer) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: rw}
		next.ServeHTTP(rec, r)
		if rec.status == 0 {
			rec.status = http.StatusOK
		}
		bp := linePool.Get().(*[]byte)
		line := appendAccessLine((*bp)[:0], start, r.Method, r.URL.Path, rec.status, rec.bytes, time.Since(start), r.RemoteAddr)
		w.Write(line)
		*bp = line
		linePool.Put(bp)
	})
}

var linePool = sync.Pool{New: func() any { b := make([]byte, 0, 256); return &b }}

// appendAccessLine appends the line slog.TextHandler would write for
// msg=request with these attributes.
func appendAccessLine(b []byte, t time.Time, method, path string, status int, n int64, d time.Duration, remote string) []byte {
	b = append(b, "time="...)
	b = t.Truncate(time.Millisecond).AppendFormat(b, "2006-01-02T15:04:05.000Z07:00")
	b = append(b, " level=INFO msg=request method="...)
	b = appendText(b, method)
	b = append(b, " path="...)
	b = appendText(b, path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, " duration="...)
	b = append(b, d.String()...)
	b = append(b, " remote="...)
	b = appendText(b, remote)
	return append(b, '\n')
}

// appendText writes s bare, or quoted when slog's text format would quote
// it: empty, or holding a space, '=', '"', a control or unprintable
// character.
func appendText(b []byte, s string) []byte {
	if needsQuoting(s) {
		return strconv.AppendQuote(b, s)
	}
	return append(b, s...)
}

func needsQuoting(s string) bool {
	if s == "" {
		return true
	}
	for _, r := range s {
		if r == ' ' || r == '=' || r == '"' || r == utf8.RuneError || unicode.IsSpace(r) || !unicode.IsPrint(r) {
			return true
		}
	}
	return false
}

// statusRecorder notes the status and counts the body bytes on their way
// through.
type statusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int64
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += int64(n)
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (deadlines,
// flushing) through the recorder.
func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// lineBuffer batches log lines into few writes: one write(2) per request
// would cost more than answering it. Lines wait at most the flush
// interval; Close writes what is left.
type lineBuffer struct {
	mu   sync.Mutex
	w    *bufio.Writer
	stop chan struct{}
	done chan struct{}
}

func newLineBuffer(w io.Writer, every time.Duration) *lineBuffer {
	b := &lineBuffer{w: bufio.NewWriterSize(w, 64<<10), stop: make(chan struct{}), done: make(chan struct{})}
	go b.flushEvery(every)
	return b
}

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Write(p)
}

func (b *lineBuffer) flushEvery(every time.Duration) {
	defer close(b.done)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
			b.flush()
		}
	}
}

func (b *lineBuffer) flush() error {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.w.Flush()
}

// Close stops the timer and writes the lines still buffered.
func (b *lineBuffer) Close() error {
	close(b.stop)
	<-b.done
	return b.flush()
}
