package front

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
	"time"
	"unicode"
	"unicode/utf8"
)

// accessLog writes one structured line per request to w after it is
// answered: method, path, status, body bytes written, duration and the
// peer's address (behind a proxy, the proxy's; folio trusts no forwarding
// header). The line is log/slog's text format, made by hand: going
// through slog cost a tenth of the CPU of answering a small page. The
// recorder and the line's buffer are reused (a handler must not use its
// ResponseWriter after it returns), so logging allocates nothing.
//
// On a connection of folio serve's (a coalesceConn, found in the
// request's context: connContext), the line is made with the
// connection's recorder and buffer, and its time is when net/http read
// the request: net/http reads the clock then to set the write deadline,
// which the connection keeps (readAt), so that the line costs one
// reading of the clock, the duration's, not three.
func accessLog(next http.Handler, w io.Writer) http.Handler {
	return http.HandlerFunc(func(rw http.ResponseWriter, r *http.Request) {
		l, start, pooled := loggedFor(r)
		l.rec = statusRecorder{ResponseWriter: rw}
		next.ServeHTTP(&l.rec, r)
		if l.rec.status == 0 {
			l.rec.status = http.StatusOK
		}
		l.line = appendAccessHead(l.line[:0], start, r.Method, r.URL.Path, l.rec.status, l.rec.bytes, time.Since(start))
		l.line = append(l.line, l.remoteTail(r.RemoteAddr)...)
		w.Write(l.line)
		l.rec = statusRecorder{}
		if pooled {
			logging.Put(l)
		}
	})
}

// logged is what one request's line is made with.
type logged struct {
	rec  statusRecorder
	line []byte
	// remote is the last peer address logged with this, and tail the
	// line's end made from it (" remote=…\n"): the requests of a
	// connection all come from one address, which is then quoted (or
	// not) and copied once, not once per request.
	remote string
	tail   []byte
}

// remoteTail returns the line's end for the peer address remote.
func (l *logged) remoteTail(remote string) []byte {
	if len(l.tail) == 0 || remote != l.remote { // a tail made is never empty: it ends the line
		l.remote, l.tail = remote, appendRemote(l.tail[:0], remote)
	}
	return l.tail
}

var logging = sync.Pool{New: func() any { return &logged{line: make([]byte, 0, 256), tail: make([]byte, 0, 64)} }}

// loggedFor returns what r's line is made with and when r began: its
// connection's own, and the time net/http read it, when r came on a
// coalesceConn that saw the deadline net/http sets once a request is
// read (and each is taken once, so a request never reads another's);
// else a pooled one (pooled) and the clock now.
func loggedFor(r *http.Request) (l *logged, start time.Time, pooled bool) {
	if c, ok := r.Context().Value(connKey{}).(*coalesceConn); ok && !c.readAt.IsZero() {
		start, c.readAt = c.readAt, time.Time{}
		return &c.logged, start, false
	}
	return logging.Get().(*logged), time.Now(), true
}

// connKey is the context key of a request's coalesceConn.
type connKey struct{}

// connContext is http.Server's ConnContext: it puts a coalesceConn in
// the context of its requests, for loggedFor.
func connContext(ctx context.Context, c net.Conn) context.Context {
	if cc, ok := c.(*coalesceConn); ok {
		return context.WithValue(ctx, connKey{}, cc)
	}
	return ctx
}

// appendAccessLine appends the line slog.TextHandler would write for
// msg=request with these attributes.
func appendAccessLine(b []byte, t time.Time, method, path string, status int, n int64, d time.Duration, remote string) []byte {
	return appendRemote(appendAccessHead(b, t, method, path, status, n, d), remote)
}

// appendAccessHead appends the line up to its last attribute, remote
// (appendRemote).
func appendAccessHead(b []byte, t time.Time, method, path string, status int, n int64, d time.Duration) []byte {
	b = append(b, "time="...)
	b = appendTime(b, t)
	b = append(b, " level=INFO msg=request method="...)
	b = appendText(b, method)
	b = append(b, " path="...)
	b = appendText(b, path)
	b = append(b, " status="...)
	b = strconv.AppendInt(b, int64(status), 10)
	b = append(b, " bytes="...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, " duration="...)
	return appendDuration(b, d)
}

// appendRemote appends the line's last attribute and its end.
func appendRemote(b []byte, remote string) []byte {
	b = append(b, " remote="...)
	b = appendText(b, remote)
	return append(b, '\n')
}

// appendTime appends t as slog's text format does,
// "2006-01-02T15:04:05.000Z07:00" (milliseconds truncated). Formatting a
// time is most of the line's cost, so the part up to the second and the
// zone are formatted once per second and kept.
func appendTime(b []byte, t time.Time) []byte {
	sec, loc := t.Unix(), t.Location()
	s := lastSecond.Load()
	if s == nil || s.unix != sec || s.loc != loc {
		s = &second{unix: sec, loc: loc, date: t.AppendFormat(nil, "2006-01-02T15:04:05"), zone: t.AppendFormat(nil, "Z07:00")}
		lastSecond.Store(s)
	}
	ms := t.Nanosecond() / 1e6
	b = append(b, s.date...)
	b = append(b, '.', byte('0'+ms/100), byte('0'+ms/10%10), byte('0'+ms%10))
	return append(b, s.zone...)
}

// second is one second of appendTime's, formatted.
type second struct {
	unix       int64
	loc        *time.Location
	date, zone []byte
}

var lastSecond atomic.Pointer[second]

// appendDuration appends d.String() without making the string: the
// same digits, by the same rules (time.Duration.String's, which this
// follows; TestAppendDuration compares the two).
func appendDuration(b []byte, d time.Duration) []byte {
	var arr [32]byte
	buf := arr[:]
	w := len(buf)
	u := uint64(d)
	neg := d < 0
	if neg {
		u = -u
	}
	if u < uint64(time.Second) {
		// Less than a second: one unit, with a fraction.
		var prec int
		w--
		buf[w] = 's'
		w--
		switch {
		case u == 0:
			return append(b, "0s"...)
		case u < uint64(time.Microsecond):
			prec = 0
			buf[w] = 'n'
		case u < uint64(time.Millisecond):
			prec = 3
			// U+00B5 'µ' micro sign, as time.Duration.String writes it.
			w--
			copy(buf[w:], "µ")
		default:
			prec = 6
			buf[w] = 'm'
		}
		w, u = fmtFrac(buf[:w], u, prec)
		w = fmtInt(buf[:w], u)
	} else {
		w--
		buf[w] = 's'
		w, u = fmtFrac(buf[:w], u, 9)
		w = fmtInt(buf[:w], u%60) // u is now whole seconds
		u /= 60
		if u > 0 {
			w--
			buf[w] = 'm'
			w = fmtInt(buf[:w], u%60)
			u /= 60
			if u > 0 {
				w--
				buf[w] = 'h'
				w = fmtInt(buf[:w], u)
			}
		}
	}
	if neg {
		w--
		buf[w] = '-'
	}
	return append(b, buf[w:]...)
}

// fmtFrac formats the fraction of v/10**prec (e.g. ".12345") into the
// tail of buf, omitting trailing zeros and the dot when the fraction is
// 0. It returns the index where the output begins and v/10**prec.
func fmtFrac(buf []byte, v uint64, prec int) (int, uint64) {
	w := len(buf)
	print := false
	for range prec {
		digit := v % 10
		print = print || digit != 0
		if print {
			w--
			buf[w] = byte(digit) + '0'
		}
		v /= 10
	}
	if print {
		w--
		buf[w] = '.'
	}
	return w, v
}

// fmtInt formats v into the tail of buf and returns where it begins.
func fmtInt(buf []byte, v uint64) int {
	w := len(buf)
	if v == 0 {
		w--
		buf[w] = '0'
		return w
	}
	for v > 0 {
		w--
		buf[w] = byte(v%10) + '0'
		v /= 10
	}
	return w
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
	for i := 0; i < len(s); i++ { // ASCII, the usual path and address, without decoding
		if c := s[i]; notBare[c] {
			if c >= utf8.RuneSelf {
				return needsQuotingRunes(s[i:])
			}
			return true
		}
	}
	return false
}

// notBare marks the bytes needsQuoting stops at: those that make slog
// quote (a space or control, DEL, '=', '"') and those that start a
// multi-byte rune, which it decodes. One lookup per byte of a path.
var notBare = func() (t [256]bool) {
	for c := range t {
		t[c] = c <= ' ' || c == 0x7f || c == '=' || c == '"' || c >= utf8.RuneSelf
	}
	return t
}()

func needsQuotingRunes(s string) bool {
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

// ReadFrom keeps the ResponseWriter's own ReadFrom (net/http's, which
// hands a file to the connection for sendfile) behind the recorder.
func (s *statusRecorder) ReadFrom(r io.Reader) (int64, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	var n int64
	var err error
	if rf, ok := s.ResponseWriter.(io.ReaderFrom); ok {
		n, err = rf.ReadFrom(r)
	} else {
		n, err = io.Copy(writerOnly{s.ResponseWriter}, r)
	}
	s.bytes += n
	return n, err
}

// writerOnly hides a writer's ReadFrom, so that io.Copy does not call it.
type writerOnly struct{ io.Writer }

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
