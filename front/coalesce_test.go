package front

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// countingConn counts the writes that reach the connection.
type countingConn struct {
	net.Conn
	writes *atomic.Int64
}

func (c countingConn) Write(p []byte) (int, error) {
	c.writes.Add(1)
	return c.Conn.Write(p)
}

type countingListener struct {
	net.Listener
	writes *atomic.Int64
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return countingConn{c, l.writes}, nil
}

// TestCoalesceOneWritePerResponse serves answers of several sizes through
// net/http and counts the writes each costs: one for anything up to
// holdMax (net/http alone makes two for more than 4 KiB).
func TestCoalesceOneWritePerResponse(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var writes atomic.Int64
	hs := newHTTPServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(strings.TrimPrefix(r.URL.Path, "/"))
		w.Header().Set("Content-Length", strconv.Itoa(n))
		w.Write(bytes.Repeat([]byte("x"), n))
	}), slog.New(slog.DiscardHandler))
	go hs.Serve(coalesceListener{countingListener{ln, &writes}})
	defer hs.Close()

	client := &http.Client{Transport: &http.Transport{DisableCompression: true}}
	for _, tc := range []struct {
		size      int
		maxWrites int64
	}{{100, 1}, {7000, 1}, {40000, 1}, {holdMax, 2}, {300000, 4}} {
		writes.Store(0)
		resp, err := client.Get(fmt.Sprintf("http://%s/%d", ln.Addr(), tc.size))
		if err != nil {
			t.Fatal(err)
		}
		body, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil || len(body) != tc.size {
			t.Fatalf("%d bytes: got %d, %v", tc.size, len(body), err)
		}
		if n := writes.Load(); n > tc.maxWrites || n == 0 {
			t.Errorf("a %d-byte answer took %d writes, want at most %d", tc.size, n, tc.maxWrites)
		}
	}
}

// pipe returns a coalesceConn over one end of a net.Pipe and the other end.
func pipe(t *testing.T) (*coalesceConn, net.Conn) {
	a, b := net.Pipe()
	t.Cleanup(func() { a.Close(); b.Close() })
	return &coalesceConn{Conn: a}, b
}

// readWithin reads n bytes from c, failing the test if they do not come
// within 30 s: a liveness check, not a timing assertion.
func readWithin(t *testing.T, c net.Conn, n int) []byte {
	t.Helper()
	c.SetReadDeadline(time.Now().Add(30 * time.Second))
	buf := make([]byte, n)
	if _, err := io.ReadFull(c, buf); err != nil {
		t.Fatalf("reading %d bytes: %v", n, err)
	}
	return buf
}

func TestCoalesceFlushes(t *testing.T) {
	t.Run("on a deadline", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write([]byte("head"))
		c.Write([]byte("body"))
		go c.SetWriteDeadline(time.Time{})
		if got := readWithin(t, peer, 8); string(got) != "headbody" {
			t.Errorf("read %q", got)
		}
	})
	t.Run("by the timer when nothing else comes", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write([]byte("forgotten"))
		if got := readWithin(t, peer, 9); string(got) != "forgotten" {
			t.Errorf("read %q", got)
		}
	})
	t.Run("beyond holdMax at once", func(t *testing.T) {
		c, peer := pipe(t)
		big := bytes.Repeat([]byte("y"), holdMax+1)
		go c.Write(append([]byte("a"), big...))
		if got := readWithin(t, peer, len(big)+1); got[0] != 'a' || len(got) != len(big)+1 {
			t.Errorf("read %d bytes", len(got))
		}
	})
	t.Run("on Close", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write([]byte("last"))
		got := make(chan []byte)
		go func() { b, _ := io.ReadAll(peer); got <- b }()
		c.Close()
		if b := <-got; string(b) != "last" {
			t.Errorf("read %q", b)
		}
	})
}

// TestCoalesceCloseDuringWrite: Close does not wait for a write stuck on
// a client that reads nothing (the server giving up on draining).
func TestCoalesceCloseDuringWrite(t *testing.T) {
	c, _ := pipe(t)
	done := make(chan error)
	go func() {
		_, err := c.Write(bytes.Repeat([]byte("z"), holdMax+1)) // blocks: nobody reads
		done <- err
	}()
	for c.mu.TryLock() { // until the writer holds the lock
		c.mu.Unlock()
		time.Sleep(time.Millisecond)
	}
	closed := make(chan struct{})
	go func() { c.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(30 * time.Second):
		t.Fatal("Close waited for a blocked write")
	}
	if err := <-done; err == nil {
		t.Error("the blocked write succeeded after Close")
	}
}

// readerFromConn records that ReadFrom reached it.
type readerFromConn struct {
	net.Conn
	used bool
}

func (c *readerFromConn) ReadFrom(r io.Reader) (int64, error) {
	c.used = true
	return io.Copy(io.Discard, r)
}

// TestCoalesceReadFrom: held bytes go first, then the connection's own
// ReadFrom (sendfile on TCP) does the copy.
func TestCoalesceReadFrom(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	inner := &readerFromConn{Conn: a}
	c := &coalesceConn{Conn: inner}
	c.Write([]byte("headers"))
	got := make(chan []byte)
	go func() { got <- readWithin(t, b, 7) }()
	if _, err := c.ReadFrom(strings.NewReader("file")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != "headers" {
		t.Errorf("held bytes %q", b)
	}
	if !inner.used {
		t.Error("ReadFrom did not reach the connection's own ReadFrom")
	}
}
