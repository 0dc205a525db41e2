package reliability

import (
	"io"
	"net"
	"sync"
	"testing"
	"time"
)

// readHeaderTimeout is serve.go's http.Server ReadHeaderTimeout: a client
// gets this long to send its whole request header.
const readHeaderTimeout = 10 * time.Second

// TestSlowloris opens many connections to the folio binary that send a
// request header one byte at a time and never finish it. The server cuts
// every one of them once ReadHeaderTimeout has passed (within a generous
// margin), and answers ordinary requests all the while (a request the
// attack stalled would fail on the client's 30 s timeout; nothing here
// asserts speed).
func TestSlowloris(t *testing.T) {
	if testing.Short() {
		t.Skip("starts the folio binary and takes ReadHeaderTimeout")
	}
	t.Parallel()
	p := startServe(t, hostileDir(t))
	const conns = 64
	start := time.Now()
	closedAfter := make([]time.Duration, conns)
	var wg sync.WaitGroup
	for i := range conns {
		c, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		wg.Add(1)
		go func() {
			defer wg.Done()
			closedAfter[i] = drip(c, start)
		}()
	}
	// While they drip, real clients are served.
	client := newRemote(p.Addr())
	for time.Since(start) < readHeaderTimeout/2 {
		if a := ask(t, client, "GET", "/blog/hello/", nil); a.status != 200 {
			t.Fatalf("during the attack, a real request got %d", a.status)
		}
		time.Sleep(200 * time.Millisecond)
	}
	wg.Wait()
	var longest time.Duration
	for i, d := range closedAfter {
		longest = max(longest, d)
		if d < 0 {
			t.Errorf("connection %d was still open after %v", i, -d)
		}
	}
	t.Logf("%d slow connections, each cut after at most %v (ReadHeaderTimeout %v)", conns, longest.Round(100*time.Millisecond), readHeaderTimeout)
}

// drip sends a request header one byte every 300 ms, never ending it,
// until the server closes the connection; it returns how long after
// start that was, or minus the time waited if the server never closed
// it within ReadHeaderTimeout plus a margin.
func drip(c net.Conn, start time.Time) time.Duration {
	limit := readHeaderTimeout + 20*time.Second // generous: the machine may be busy
	header := "GET / HTTP/1.1\r\nHost: x\r\nX-Slow: "
	if _, err := io.WriteString(c, header); err != nil {
		return time.Since(start)
	}
	closed := make(chan struct{})
	go func() {
		// The server answers 408 or just closes; either ends the read.
		io.Copy(io.Discard, c)
		close(closed)
	}()
	tick := time.NewTicker(300 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-closed:
			return time.Since(start)
		case <-tick.C:
			if time.Since(start) > limit {
				return -time.Since(start)
			}
			if _, err := c.Write([]byte("a")); err != nil {
				<-closed
				return time.Since(start)
			}
		}
	}
}
