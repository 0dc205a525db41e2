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

// full is a write of net/http's whole buffer: the start of a response
// that needs more than one write, which coalesceConn holds.
func full(b byte) []byte { return bytes.Repeat([]byte{b}, netHTTPBuffer) }

func TestCoalesceFlushes(t *testing.T) {
	t.Run("a write that is not a full buffer at once", func(t *testing.T) {
		c, peer := pipe(t)
		go c.Write([]byte("a whole 304")) // net.Pipe: Write waits for the read
		if got := readWithin(t, peer, 11); string(got) != "a whole 304" {
			t.Errorf("read %q", got)
		}
		if len(c.buf) != 0 {
			t.Errorf("held %d bytes", len(c.buf))
		}
	})
	t.Run("on a deadline", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write(full('h'))
		c.Write([]byte("body"))
		go c.SetWriteDeadline(time.Time{})
		if got := readWithin(t, peer, netHTTPBuffer+4); string(got) != string(full('h'))+"body" {
			t.Errorf("read %q", got[netHTTPBuffer-4:])
		}
	})
	t.Run("by the timer when nothing else comes", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write(full('f'))
		if got := readWithin(t, peer, netHTTPBuffer); string(got) != string(full('f')) {
			t.Errorf("read %q", got[:8])
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
	t.Run("what is held, then past holdMax together", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write(full('h'))
		big := bytes.Repeat([]byte("y"), holdMax)
		go c.Write(big)
		got := readWithin(t, peer, netHTTPBuffer+holdMax)
		if string(got[:netHTTPBuffer]) != string(full('h')) || string(got[netHTTPBuffer:]) != string(big) {
			t.Error("the held bytes and the large write came out of order")
		}
	})
	t.Run("on Close", func(t *testing.T) {
		c, peer := pipe(t)
		c.Write(full('l'))
		got := make(chan []byte)
		go func() { b, _ := io.ReadAll(peer); got <- b }()
		c.Close()
		if b := <-got; string(b) != string(full('l')) {
			t.Errorf("read %d bytes", len(b))
		}
	})
}

// TestCoalesceCloseDuringWrite: Close does not wait for a write stuck on
// a client that reads nothing (the server giving up on draining).
// A write made at once (nothing held) takes no lock; one that adds to a
// hold writes under it.
func TestCoalesceCloseDuringWrite(t *testing.T) {
	for _, held := range []bool{false, true} {
		c, _ := pipe(t)
		done := make(chan error)
		go func() {
			if held {
				c.Write(make([]byte, netHTTPBuffer)) // held, then sent with the next
			}
			_, err := c.Write(bytes.Repeat([]byte("z"), holdMax+1)) // blocks: nobody reads
			done <- err
		}()
		for held && c.mu.TryLock() { // until the writer holds the lock
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
			t.Errorf("held %v: the blocked write succeeded after Close", held)
		}
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
	c.Write(full('h'))
	got := make(chan []byte)
	go func() { got <- readWithin(t, b, netHTTPBuffer) }()
	if _, err := c.ReadFrom(strings.NewReader("file")); err != nil {
		t.Fatal(err)
	}
	if b := <-got; string(b) != string(full('h')) {
		t.Errorf("held bytes %q…", b[:8])
	}
	if !inner.used {
		t.Error("ReadFrom did not reach the connection's own ReadFrom")
	}
}
