package front

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"testing"

	"folio/internal/syncbuf"
)

// TestAccessLogFlushedOnShutdown: the access log is buffered (one write
// per 100 ms or 64 KiB, not per request), and a clean shutdown loses no
// line: every request answered is in the log, before the shutdown line.
func TestAccessLogFlushedOnShutdown(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out syncbuf.Buffer
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() {
		done <- Serve(ctx, ln, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }),
			Options{AccessLog: &out, Coalesce: true, Log: slog.New(slog.NewTextHandler(&out, nil))})
	}()
	const n = 50
	for range n {
		res, err := http.Get("http://" + ln.Addr().String() + "/x")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	log := out.String()
	if got := strings.Count(log, "msg=request "); got != n {
		t.Errorf("%d access lines after %d requests and a shutdown:\n%s", got, n, log)
	}
	if last, stop := strings.LastIndex(log, "msg=request "), strings.Index(log, `msg="shutting down"`); stop < 0 || last > stop {
		t.Errorf("the shutdown line is missing or before a request's:\n%s", log)
	}
}
