package front

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"folio/internal/cputime"
)

// BenchmarkAccessLog measures the access log's whole cost per request as
// folio serve pays it: the wrapper around a handler that writes a small
// body, the request on a coalesceConn (its recorder, its read time), the
// line formatted and written into the 64 KiB line buffer. The handler
// alone (the "bare" sub-benchmark) is what remains without the log.
func BenchmarkAccessLog(b *testing.B) {
	body := []byte("hello")
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header()
		w.WriteHeader(http.StatusOK)
		w.Write(body)
	})
	lines := newLineBuffer(io.Discard, 100*time.Millisecond)
	defer lines.Close()
	cc := &coalesceConn{}
	req := httptest.NewRequest("GET", "/blog/post-006736/", nil)
	req.RemoteAddr = "127.0.0.1:54321"
	req = req.WithContext(context.WithValue(context.Background(), connKey{}, cc))
	w := &nopWriter{h: http.Header{}}
	at := time.Now()
	for _, bc := range []struct {
		name string
		h    http.Handler
	}{{"bare", inner}, {"logged", accessLog(inner, lines)}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			cpu := cputime.Used()
			for b.Loop() {
				cc.readAt = at // as net/http sets it per request (its write deadline)
				bc.h.ServeHTTP(w, req)
			}
			b.ReportMetric(float64(cputime.Used()-cpu)/float64(b.N), "cpu-ns/op")
		})
	}
}
