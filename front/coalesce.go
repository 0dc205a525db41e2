package front

import (
	"io"
	"net"
	"sync"
	"sync/atomic"
	"time"
)

// net/http writes a response through a 4 KiB buffer, so any answer larger
// than that (most pages) costs two write(2) calls: the headers with the
// start of the body, then the rest when the handler returns. Those calls
// were a quarter of folio's CPU per request. coalesceConn holds what is
// written to a connection until net/http is done with the response, then
// writes it in one call.
//
// Only a response that needs more than one write is held: net/http writes
// a response that fits its buffer (every 304, most gzip answers) in one
// write of less than the buffer, which goes out at once, at no cost. A
// write of exactly netHTTPBuffer bytes with nothing held is net/http
// flushing a full buffer with more to come, so it is held, and what
// follows is added.
//
// "Done" is read from the deadlines: net/http sets the read or write
// deadline of a connection after it has flushed a response, before it
// waits for the next request (or closes it). A timer flushes anything held
// longer than holdFor, should a future net/http stop doing so; Close,
// CloseWrite and ReadFrom flush first; when what is held and what comes
// pass holdMax, both go out at once in one writev(2).

const (
	holdMax       = 64 << 10
	holdFor       = 2 * time.Millisecond
	netHTTPBuffer = 4 << 10 // net/http's write buffer per connection (bufferBeforeChunkingSize is for the body)
)

// coalesceListener wraps every accepted connection in a coalesceConn.
type coalesceListener struct{ net.Listener }

func (l coalesceListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &coalesceConn{Conn: c}, nil
}

type coalesceConn struct {
	net.Conn
	mu    sync.Mutex
	buf   []byte
	err   error // from a write made after Write returned
	timer *time.Timer
	// busy is whether buf holds bytes or err is set, kept with them
	// under mu and read without it: net/http sets a deadline about seven
	// times per request, and a deadline with nothing held (all but one
	// of them, and every one of a response written at once) then costs
	// no lock, nor does a write of a response that fits net/http's
	// buffer.
	busy atomic.Bool
	// capInfo is the connection cap's record of it (conns.go), kept here
	// so that the cap finds it without a lookup.
	capInfo connInfo

	// readAt is when net/http read the request being answered (the
	// write deadline it set then, less writeTimeout), zero once the
	// access log took it; logged is the access log's recorder and line
	// for the connection's requests, one at a time (accesslog.go). Only
	// the connection's goroutine in net/http, which runs the handler,
	// touches them.
	readAt time.Time
	logged logged
}

// Write writes p at once unless it is a full buffer of net/http's or
// follows one; then it holds p, or writes what is held and p in one call
// when together they pass holdMax.
func (c *coalesceConn) Write(p []byte) (int, error) {
	if len(p) != netHTTPBuffer && !c.busy.Load() {
		// Nothing held and no error: only net/http's goroutine writes,
		// so nothing can come to be held before this write returns (the
		// timer and Close only empty the hold).
		return c.Conn.Write(p)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.err != nil {
		return 0, c.err
	}
	if len(c.buf) == 0 {
		if len(p) != netHTTPBuffer {
			return c.Conn.Write(p)
		}
		c.arm()
	} else if len(c.buf)+len(p) > holdMax {
		c.timer.Stop()
		bufs := net.Buffers{c.buf, p}
		_, c.err = bufs.WriteTo(c.Conn) // writev(2) on TCP
		c.release()
		if c.err != nil {
			return 0, c.err
		}
		return len(p), nil
	}
	c.buf = append(c.buf, p...)
	c.busy.Store(true)
	return len(p), nil
}

// arm starts the timer that flushes a forgotten hold.
func (c *coalesceConn) arm() {
	if c.timer == nil {
		c.timer = time.AfterFunc(holdFor, c.flush)
		return
	}
	c.timer.Reset(holdFor)
}

func (c *coalesceConn) flush() {
	c.mu.Lock()
	c.flushLocked()
	c.mu.Unlock()
}

func (c *coalesceConn) flushLocked() {
	if len(c.buf) == 0 || c.err != nil {
		return
	}
	c.timer.Stop()
	_, c.err = c.Conn.Write(c.buf)
	c.release()
}

// release empties the hold after a write (err set by it).
func (c *coalesceConn) release() {
	c.busy.Store(c.err != nil)
	if cap(c.buf) > holdMax {
		c.buf = nil // a one-off large hold is not kept per connection
	} else {
		c.buf = c.buf[:0]
	}
}

// flushHeld writes what is held, if anything is. Only the goroutine
// that writes (net/http's, for the connection) sets a deadline, so what
// it reads in busy is what its own writes left; the timer's flush can
// only empty the hold meanwhile, which flush then finds empty.
func (c *coalesceConn) flushHeld() {
	if c.busy.Load() {
		c.flush()
	}
}

func (c *coalesceConn) SetDeadline(t time.Time) error {
	c.flushHeld()
	return c.Conn.SetDeadline(t)
}

func (c *coalesceConn) SetReadDeadline(t time.Time) error {
	c.flushHeld()
	return c.Conn.SetReadDeadline(t)
}

// SetWriteDeadline also notes when net/http read the request it is
// about to answer: it sets the write deadline to writeTimeout from then
// (a zero time after the answer).
func (c *coalesceConn) SetWriteDeadline(t time.Time) error {
	c.flushHeld()
	if !t.IsZero() {
		c.readAt = t.Add(-writeTimeout)
	}
	return c.Conn.SetWriteDeadline(t)
}

// Close writes what is held unless a write is in progress (a slow client
// when the server gives up on draining), then closes, which ends any such
// write.
func (c *coalesceConn) Close() error {
	if c.mu.TryLock() {
		c.flushLocked()
		c.mu.Unlock()
	}
	err := c.Conn.Close()
	c.mu.Lock()
	if c.timer != nil {
		c.timer.Stop()
	}
	c.mu.Unlock()
	return err
}

// CloseWrite is the half-close net/http uses before closing a connection
// whose request it did not read to the end.
func (c *coalesceConn) CloseWrite() error {
	c.flush()
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps the TCP connection's sendfile path (large bundle files
// served from disk, large prepared bodies from a memfd: sendSection) after
// writing what is held.
func (c *coalesceConn) ReadFrom(r io.Reader) (int64, error) {
	c.mu.Lock()
	c.flushLocked()
	err := c.err
	c.mu.Unlock()
	if err != nil {
		return 0, err
	}
	if n, err, ok := sendSection(c.Conn, r); ok {
		return n, err
	}
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}
