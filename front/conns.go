package front

import (
	"net"
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"
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
	tick atomic.Uint64
	// made room is counted and said at most once a minute.
	evicted, refused int
	lastSaid         time.Time
}

// connInfo is a connection's state and the tick it entered it, in one
// word, so that track can change it without the cap's lock: net/http
// reports two changes per request (active, then idle), and the lock and
// the map lookup were most of what the cap cost a request. The map (and
// so the lock) is for the connections' coming and going, and victim.
type connInfo struct{ v atomic.Uint64 }

func (in *connInfo) set(state http.ConnState, since uint64) {
	in.v.Store(since<<8 | uint64(state)&0xff)
}

func (in *connInfo) get() (state http.ConnState, since uint64) {
	v := in.v.Load()
	return http.ConnState(v & 0xff), v >> 8
}

// infoOf is where conn's connInfo lives: in the connection itself when
// it is a coalesceConn (folio serve's), so that track finds it without
// the map; else on its own.
func infoOf(conn net.Conn) *connInfo {
	if cc, ok := conn.(*coalesceConn); ok {
		return &cc.capInfo
	}
	return new(connInfo)
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
		in := infoOf(conn)
		in.set(http.StateNew, c.tick.Add(1))
		c.conns[conn] = in
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
	var bestRank int
	var bestSince uint64
	for conn, in := range c.conns {
		state, since := in.get()
		if state != http.StateIdle && state != http.StateNew {
			continue
		}
		if r := rank(state); best == nil || r < bestRank || r == bestRank && since < bestSince {
			best, bestRank, bestSince = conn, r, since
		}
	}
	return best
}

// rank puts idle connections before new ones.
func rank(state http.ConnState) int {
	if state == http.StateIdle {
		return 0
	}
	return 1
}

// track follows each connection's state (http.Server.ConnState).
func (c *connCap) track(conn net.Conn, state http.ConnState) {
	switch state {
	case http.StateClosed, http.StateHijacked:
		c.mu.Lock()
		delete(c.conns, conn)
		c.mu.Unlock()
	default:
		if cc, ok := conn.(*coalesceConn); ok {
			cc.capInfo.set(state, c.tick.Add(1))
			return
		}
		c.mu.Lock()
		if in, ok := c.conns[conn]; ok {
			in.set(state, c.tick.Add(1))
		}
		c.mu.Unlock()
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
