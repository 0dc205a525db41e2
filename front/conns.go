package front

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"
)

// Each connection holds a file descriptor. Without a cap, enough idle
// keep-alive connections (a browser keeps several, a crawler hundreds)
// take every descriptor the process may open: accept(2) then fails with
// EMFILE, and everyone else waits in the kernel's queue until an idle
// connection times out, minutes later. A connCap keeps the connections
// under a limit below the descriptors, so that accepting always works, and
// makes room as HTTP allows: it closes the connection idle the longest
// (between requests, RFC 9112 section 9.5), else the one that has sent
// nothing for the longest, and only when every connection is answering a
// request does it turn the new one away with 503.

// fdReserve is what the cap leaves of the process's descriptors for
// everything but connections: bundle files being streamed, the content
// being read, the watcher, the log.
func fdReserve(limit int) int { return max(64, limit/8) }

// DefaultMaxConns is the cap when Options.MaxConns is 0: the process's
// open-file limit (which Go raises to the hard limit at start) less the
// reserve; at least 16, and 65,536 where the system says no limit.
func DefaultMaxConns() int {
	limit, ok := openFileLimit()
	if !ok || limit > 1<<20 {
		return 1 << 16
	}
	return max(16, limit-fdReserve(limit))
}

// connCap is the listener that keeps to the cap; track is its
// http.Server ConnState hook.
type connCap struct {
	net.Listener
	max int
	log func(msg string, args ...any)

	mu    sync.Mutex
	conns map[net.Conn]*connInfo
	// tick orders the state changes: a connection's since is the tick
	// of its last one. Only the order matters (victim), and a counter
	// costs nothing where reading the clock twice per request did.
	tick uint64
	// made room is counted and said at most once a minute.
	evicted, refused int
	lastSaid         time.Time
}

type connInfo struct {
	state http.ConnState
	since uint64 // the cap's tick when it entered state
}

func newConnCap(ln net.Listener, max int, log func(string, ...any)) *connCap {
	return &connCap{Listener: ln, max: max, log: log, conns: map[net.Conn]*connInfo{}}
}

// Accept accepts the next connection, making room first when the cap is
// reached.
func (c *connCap) Accept() (net.Conn, error) {
	for {
		conn, err := c.Listener.Accept()
		if err != nil {
			return nil, err
		}
		now := time.Now()
		c.mu.Lock()
		var victim net.Conn
		if len(c.conns) >= c.max {
			victim = c.victim()
			if victim == nil {
				c.refused++
				c.say(now)
				c.mu.Unlock()
				go refuse(conn)
				continue
			}
			delete(c.conns, victim)
			c.evicted++
			c.say(now)
		}
		c.tick++
		c.conns[conn] = &connInfo{state: http.StateNew, since: c.tick}
		c.mu.Unlock()
		if victim != nil {
			victim.Close()
		}
		return conn, nil
	}
}

// victim is the connection to close for room: the one idle longest, else
// the one waiting longest for its first request; nil when all are busy.
func (c *connCap) victim() net.Conn {
	var best net.Conn
	var bestInfo *connInfo
	for conn, in := range c.conns {
		if in.state != http.StateIdle && in.state != http.StateNew {
			continue
		}
		if bestInfo == nil || rank(in) < rank(bestInfo) || rank(in) == rank(bestInfo) && in.since < bestInfo.since {
			best, bestInfo = conn, in
		}
	}
	return best
}

// rank puts idle connections before new ones.
func rank(in *connInfo) int {
	if in.state == http.StateIdle {
		return 0
	}
	return 1
}

// track follows each connection's state (http.Server.ConnState).
func (c *connCap) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch state {
	case http.StateClosed, http.StateHijacked:
		delete(c.conns, conn)
	default:
		if in, ok := c.conns[conn]; ok {
			c.tick++
			in.state, in.since = state, c.tick
		}
	}
}

// say logs what making room cost, at most once a minute.
func (c *connCap) say(now time.Time) {
	if now.Sub(c.lastSaid) < time.Minute {
		return
	}
	c.lastSaid = now
	c.log("connection cap reached: idle connections closed, new ones turned away", "max", c.max, "closed", c.evicted, "refused", c.refused)
}

// busyBody and busyResponse are what a connection turned away gets:
// HTTP's own way of saying "later", not a reset.
const busyBody = "busy: every connection is answering a request; try again\n"

var busyResponse = []byte("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n" +
	"Retry-After: 1\r\nCache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n" +
	"Content-Length: " + strconv.Itoa(len(busyBody)) + "\r\n\r\n" + busyBody)

// refuse answers 503 on a connection it will not serve, and closes it.
func refuse(conn net.Conn) {
	conn.SetDeadline(time.Now().Add(time.Second))
	conn.Write(busyResponse)
	conn.Close()
}
