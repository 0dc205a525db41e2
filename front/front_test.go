package front

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

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

// TestAccessLogOnConnection: behind Serve, a connection's requests are
// logged with the connection's recorder and the time net/http read each
// (coalesceConn.readAt), one after another on one keep-alive connection:
// each line has its own status and size, a time no later than its
// handler began and a duration no shorter than the handler took.
func TestAccessLogOnConnection(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var out syncbuf.Buffer
	type seen struct {
		start time.Time
		took  time.Duration
		own   bool // the connection's recorder
	}
	seenc := make(chan seen, 10)
	statuses := []int{200, 201, 202, 404, 500}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		cc, _ := r.Context().Value(connKey{}).(*coalesceConn)
		n, _ := strconv.Atoi(r.URL.Query().Get("n"))
		w.WriteHeader(statuses[n-1])
		w.Write(make([]byte, n))
		time.Sleep(time.Duration(n) * time.Millisecond)
		seenc <- seen{start, time.Since(start), cc != nil && w == http.ResponseWriter(&cc.logged.rec)}
	})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error)
	go func() { done <- Serve(ctx, ln, h, Options{AccessLog: &out, Coalesce: true}) }()
	client := &http.Client{Transport: &http.Transport{MaxConnsPerHost: 1}}
	const n = 5
	var handled []seen
	for i := 1; i <= n; i++ {
		res, err := client.Get("http://" + ln.Addr().String() + "/x?n=" + strconv.Itoa(i))
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, res.Body)
		res.Body.Close()
		handled = append(handled, <-seenc)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(out.String()), "\n")
	if len(lines) != n {
		t.Fatalf("%d lines for %d requests:\n%s", len(lines), n, out.String())
	}
	line := regexp.MustCompile(`^time=(\S+) level=INFO msg=request method=GET path=/x status=(\d+) bytes=(\d+) duration=(\S+) remote=127\.0\.0\.1:\d+$`)
	for i, l := range lines {
		m := line.FindStringSubmatch(l)
		if m == nil {
			t.Fatalf("line %d: %q", i+1, l)
		}
		if want := strconv.Itoa(statuses[i]); m[2] != want || m[3] != strconv.Itoa(i+1) {
			t.Errorf("line %d: status %s, bytes %s; want %s, %d", i+1, m[2], m[3], want, i+1)
		}
		at, err := time.Parse("2006-01-02T15:04:05.000Z07:00", m[1])
		if err != nil {
			t.Fatal(err)
		}
		d, err := time.ParseDuration(m[4])
		if err != nil {
			t.Fatal(err)
		}
		s := handled[i]
		if !s.own {
			t.Errorf("line %d: not made with the connection's recorder", i+1)
		}
		if at.After(s.start) || d < s.took {
			t.Errorf("line %d: at %v for %v; its handler began at %v and took %v", i+1, at, d, s.start, s.took)
		}
	}
}
