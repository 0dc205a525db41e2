package front

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
	"time"
)

func TestAccessLog(t *testing.T) {
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		want    string
	}{
		{"status and body", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusCreated)
			w.Write([]byte("hello"))
		}, `status=201 bytes=5 `},
		{"implicit 200", func(w http.ResponseWriter, r *http.Request) {
			w.Write([]byte("hi"))
			w.Write([]byte("!"))
		}, `status=200 bytes=3 `},
		{"nothing written", func(w http.ResponseWriter, r *http.Request) {}, `status=200 bytes=0 `},
		{"first status wins", func(w http.ResponseWriter, r *http.Request) {
			w.WriteHeader(http.StatusNotFound)
			w.WriteHeader(http.StatusOK)
		}, `status=404 bytes=0 `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var buf bytes.Buffer
			h := accessLog(tc.handler, &buf)
			req := httptest.NewRequest("GET", "/blog/x/?q=1", nil)
			req.RemoteAddr = "192.0.2.7:4321"
			h.ServeHTTP(httptest.NewRecorder(), req)
			line := regexp.MustCompile(`^time=\S+ level=INFO msg=request method=GET path=/blog/x/ ` +
				regexp.QuoteMeta(tc.want) + `duration=\S+ remote=192\.0\.2\.7:4321\n$`)
			if !line.MatchString(buf.String()) {
				t.Errorf("logged %q, want %s", buf.String(), line)
			}
		})
	}
}

// TestAccessLineIsSlogText: the hand-made line is byte for byte what
// slog's TextHandler writes, quoting included, so log readers see one
// format.
func TestAccessLineIsSlogText(t *testing.T) {
	at := time.Date(2026, 11, 22, 22, 13, 45, 587654321, time.FixedZone("CET", 3600))
	// appendTime keeps the last second it formatted: the same second in
	// another zone, the next second, a millisecond's edges and back.
	for _, when := range []time.Time{at, at.UTC(), at.Add(time.Second), at.Add(412345679), at.Add(-587654321), at.Add(-1), at} {
		var want bytes.Buffer
		r := slog.NewRecord(when, slog.LevelInfo, "request", 0)
		r.AddAttrs(slog.String("method", "GET"), slog.String("path", "/"), slog.Int("status", 200),
			slog.Int64("bytes", 1), slog.Duration("duration", time.Millisecond), slog.String("remote", "x"))
		slog.NewTextHandler(&want, nil).Handle(context.Background(), r)
		if got := appendAccessLine(nil, when, "GET", "/", 200, 1, time.Millisecond, "x"); string(got) != want.String() {
			t.Errorf("at %v: line\n%q\nslog writes\n%q", when, got, want.String())
		}
	}
	for _, tc := range []struct{ method, path, remote string }{
		{"GET", "/blog/x/", "127.0.0.1:54058"},
		{"HEAD", "/blog/a b/", "[::1]:80"},
		{"GET", "/a=b", "x"},
		{"GET", `/q"uote\`, "x"},
		{"GET", "/café/µ", "x"},
		{"GET", "/ctl\x01\x7f", "x"},
		{"GET", "/tab\t", "x"},
		{"GET", "/nbsp\u00a0zwsp\u200b", "x"},
		{"GET", "/bad\xff", "x"},
		{"GET", "/repl\ufffd", "x"},
		{"M-SEARCH", "", ""},
	} {
		for _, d := range []time.Duration{0, 198046, 1500 * time.Millisecond} {
			var want bytes.Buffer
			h := slog.NewTextHandler(&want, nil)
			r := slog.NewRecord(at, slog.LevelInfo, "request", 0)
			r.AddAttrs(slog.String("method", tc.method), slog.String("path", tc.path), slog.Int("status", 404),
				slog.Int64("bytes", 12345), slog.Duration("duration", d), slog.String("remote", tc.remote))
			h.Handle(context.Background(), r)
			got := appendAccessLine(nil, at, tc.method, tc.path, 404, 12345, d, tc.remote)
			if string(got) != want.String() {
				t.Errorf("line\n%q\nslog writes\n%q", got, want.String())
			}
		}
	}
}

// TestAccessLogRemote: each line names its own request's peer, quoted
// as slog quotes it, when one recorder (a connection's, or the pool's)
// logs requests from one address and then from others.
func TestAccessLogRemote(t *testing.T) {
	var buf bytes.Buffer
	h := accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}), &buf)
	cc := &coalesceConn{}
	onConn := context.WithValue(context.Background(), connKey{}, cc)
	remotes := []string{"192.0.2.7:4321", "192.0.2.7:4321", "[2001:db8::1]:80", "", "a b", "192.0.2.7:4321", "192.0.2.8:4321"}
	var want []string
	for _, ctx := range []context.Context{context.Background(), onConn} {
		for _, remote := range remotes {
			req := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
			req.RemoteAddr = remote
			cc.readAt = time.Now()
			h.ServeHTTP(httptest.NewRecorder(), req)
			want = append(want, string(appendText([]byte(" remote="), remote))+"\n")
		}
	}
	lines := strings.SplitAfter(buf.String(), "\n")
	if len(lines) != len(want)+1 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines)-1, len(want), buf.String())
	}
	for i, w := range want {
		if !strings.HasSuffix(lines[i], w) {
			t.Errorf("line %d %q, want it to end %q", i, lines[i], w)
		}
	}
}

// TestAppendDuration: the access line's duration is time.Duration.String's.
func TestAppendDuration(t *testing.T) {
	ds := []time.Duration{0, 1, 999, 1000, 1001, 1500, 999999, 1000000, 1234567, 999999999,
		time.Second, 1500 * time.Millisecond, time.Minute, 61 * time.Second, time.Hour + time.Nanosecond,
		100 * time.Hour, -1, -1500, -time.Hour, math.MaxInt64, math.MinInt64}
	for d := time.Duration(1); d < 1e15; d = d*7 + 3 { // every unit and length, deterministically
		ds = append(ds, d, -d)
	}
	for _, d := range ds {
		if got := appendDuration([]byte("x"), d); string(got) != "x"+d.String() {
			t.Errorf("appendDuration(%d) = %q, want %q", int64(d), got[1:], d.String())
		}
	}
}

// TestAccessLogAllocatesNothing: a request's line costs no allocation
// (the recorder and the buffer are reused, the time and the duration are
// formatted in place).
func TestAccessLogAllocatesNothing(t *testing.T) {
	if raceEnabled {
		// Under the race detector sync.Pool drops a quarter of what is
		// put back, at random: the count would be the pool's, not ours.
		t.Skip("allocations are not counted under -race")
	}
	body := []byte("ok")
	h := accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write(body) }), io.Discard)
	w := &nopWriter{h: http.Header{}}
	req := httptest.NewRequest("GET", "/blog/x/", nil)
	h.ServeHTTP(w, req)
	if n := testing.AllocsPerRun(100, func() { h.ServeHTTP(w, req) }); n != 0 {
		t.Errorf("%v allocations per request", n)
	}
}

// TestAccessLogReadFrom: a body copied into the ResponseWriter (a file
// for sendfile) reaches the writer's own ReadFrom and is counted.
func TestAccessLogReadFrom(t *testing.T) {
	var buf bytes.Buffer
	h := accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(w, io.NewSectionReader(strings.NewReader("0123456789"), 2, 5))
	}), &buf)
	rec := httptest.NewRecorder() // a bytes.Buffer's ReadFrom under it
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/f", nil))
	if rec.Body.String() != "23456" || !strings.Contains(buf.String(), " status=200 bytes=5 ") {
		t.Errorf("body %q, line %q", rec.Body.String(), buf.String())
	}
}

type nopWriter struct{ h http.Header }

func (w *nopWriter) Header() http.Header         { return w.h }
func (w *nopWriter) Write(p []byte) (int, error) { return len(p), nil }
func (w *nopWriter) WriteHeader(int)             {}

// The recorder lets http.ResponseController reach the connection.
func TestAccessLogUnwrap(t *testing.T) {
	var flushed bool
	h := accessLog(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		flushed = http.NewResponseController(w).Flush() == nil
	}), &bytes.Buffer{})
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if !flushed {
		t.Error("Flush through the access log failed")
	}
}

func BenchmarkAccessLine(b *testing.B) {
	buf := make([]byte, 0, 256)
	now := time.Now()
	for b.Loop() {
		buf = appendAccessLine(buf[:0], now, "GET", "/blog/post-000123/", 200, 12345, 12345, "127.0.0.1:54321")
	}
}
