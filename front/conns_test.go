package front

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"
)

// serveCapped runs Serve with a cap of max connections on h, coalescing
// or not (the cap keeps a coalescing connection's state in it); it
// returns the address and stops the server when the test ends. idle
// waits until the cap has seen one more request end: net/http reports
// a connection idle only after its answer is sent, so a client that
// read the answer cannot know the cap followed it yet.
func serveCapped(t *testing.T, max int, coalesce bool, h http.Handler) (addr string, idle func()) {
	t.Helper()
	ln, err := Listen("127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	idles := make(chan struct{}, 64)
	tell := func(_ net.Conn, state http.ConnState) {
		if state == http.StateIdle {
			select {
			case idles <- struct{}{}:
			default:
			}
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		Serve(ctx, ln, h, Options{MaxConns: max, Coalesce: coalesce, connState: tell})
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })
	idle = func() {
		t.Helper()
		select {
		case <-idles:
		case <-time.After(30 * time.Second): // a hang, not a speed
			t.Fatal("the cap never saw the request end")
		}
	}
	return ln.Addr().String(), idle
}

// ask sends one keep-alive GET on conn and reads the answer's status.
func ask(t *testing.T, conn net.Conn, r *bufio.Reader) (int, error) {
	t.Helper()
	conn.SetDeadline(time.Now().Add(30 * time.Second)) // a hang, not a speed
	if _, err := io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n\r\n"); err != nil {
		return 0, err
	}
	resp, err := http.ReadResponse(r, nil)
	if err != nil {
		return 0, err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	return resp.StatusCode, nil
}

// TestConnCapClosesIdle (issue 15, finding 14): at the cap, a new
// connection is served and the one idle the longest is closed for it,
// where every newcomer used to wait for an idle one to time out.
func TestConnCapClosesIdle(t *testing.T) {
	for _, coalesce := range []bool{false, true} {
		t.Run(fmt.Sprintf("coalesce=%v", coalesce), func(t *testing.T) { testConnCapClosesIdle(t, coalesce) })
	}
}

func testConnCapClosesIdle(t *testing.T, coalesce bool) {
	addr, idle := serveCapped(t, 4, coalesce, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	var conns []net.Conn
	var readers []*bufio.Reader
	for i := range 5 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		r := bufio.NewReader(c)
		if s, err := ask(t, c, r); s != 200 || err != nil {
			t.Fatalf("connection %d: %d, %v", i, s, err)
		}
		conns, readers = append(conns, c), append(readers, r)
		idle() // idle since, in order
	}
	// The first, idle the longest, was closed for the fifth.
	if _, err := ask(t, conns[0], readers[0]); err == nil {
		t.Error("the connection idle the longest is still open past the cap")
	}
	for i := 1; i < 5; i++ {
		if s, err := ask(t, conns[i], readers[i]); s != 200 || err != nil {
			t.Errorf("connection %d after the cap: %d, %v", i, s, err)
		}
	}
}

// TestConnCapClosesIdleLongest: the connection closed is the one idle
// the longest, not the one opened first: the cap follows each request.
func TestConnCapClosesIdleLongest(t *testing.T) {
	for _, coalesce := range []bool{false, true} {
		t.Run(fmt.Sprintf("coalesce=%v", coalesce), func(t *testing.T) {
			addr, idle := serveCapped(t, 3, coalesce, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
			var conns []net.Conn
			var readers []*bufio.Reader
			dialAsk := func(i int) {
				c, err := net.Dial("tcp", addr)
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { c.Close() })
				r := bufio.NewReader(c)
				if s, err := ask(t, c, r); s != 200 || err != nil {
					t.Fatalf("connection %d: %d, %v", i, s, err)
				}
				idle()
				conns, readers = append(conns, c), append(readers, r)
			}
			for i := range 3 {
				dialAsk(i)
			}
			// The first asks again: the second is now idle the longest.
			if s, err := ask(t, conns[0], readers[0]); s != 200 || err != nil {
				t.Fatalf("connection 0 again: %d, %v", s, err)
			}
			idle()
			dialAsk(3)
			if _, err := ask(t, conns[1], readers[1]); err == nil {
				t.Error("the connection idle the longest is still open past the cap")
			}
			for _, i := range []int{0, 2, 3} {
				if s, err := ask(t, conns[i], readers[i]); s != 200 || err != nil {
					t.Errorf("connection %d after the cap: %d, %v", i, s, err)
				}
			}
		})
	}
}

// TestConnCapBusy: when every connection is answering a request, a new
// one gets 503 with Retry-After, not a wait or a reset.
func TestConnCapBusy(t *testing.T) {
	for _, coalesce := range []bool{false, true} {
		t.Run(fmt.Sprintf("coalesce=%v", coalesce), func(t *testing.T) { testConnCapBusy(t, coalesce) })
	}
}

func testConnCapBusy(t *testing.T, coalesce bool) {
	release := make(chan struct{})
	var started sync.WaitGroup
	started.Add(2)
	addr, _ := serveCapped(t, 2, coalesce, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started.Done()
		<-release
	}))
	defer close(release)
	for range 2 {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		io.WriteString(c, "GET / HTTP/1.1\r\nHost: x\r\n\r\n")
	}
	started.Wait()
	c, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(30 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "1" || !strings.HasPrefix(string(body), "busy") {
		t.Errorf("a connection past a busy cap: %d, Retry-After %q, %q", resp.StatusCode, resp.Header.Get("Retry-After"), body)
	}
}

func TestDefaultMaxConns(t *testing.T) {
	if limit, ok := openFileLimit(); ok && limit < 1<<20 {
		if got := DefaultMaxConns(); got >= limit || got < 16 {
			t.Errorf("DefaultMaxConns %d with an open-file limit of %d", got, limit)
		}
	}
	for limit, want := range map[int]int{1024: 896, 256: 192, 100: 36, 20000: 17500} {
		if got := max(16, limit-fdReserve(limit)); got != want {
			t.Errorf("limit %d: %d, want %d", limit, got, want)
		}
	}
}
