package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"folio/pipeline"
)

// Live reload (folio dev only) over Server-Sent Events at /_folio/events.
//
// The stream carries three events, each with the SSE id of the state it
// describes (see liveVersion):
//
//	event: problems   data: [{"path":…,"line":…,"message":…},…]
//	event: clear      data: (empty)
//	event: reload     data: <snapshot id>
//
// A new state (a Swap, a new theme) sends problems or
// clear when the list of problems changed, then reload. On connect the
// client gets the current state: problems when there are any, or, when the
// page that connects was rendered from an older state (its ?since= is not
// the current version), a reload right away, so a change that landed
// between rendering the page and opening the stream is not missed; after
// a server restart every old page is stale in that sense.
//
// The broker never blocks Swap: each client has a one-slot wake-up
// channel, and a woken client reads the newest state itself. A slow
// client therefore skips intermediate states and gets the latest one,
// never a queue of stale events.

// liveKeepAlive is how often an idle stream gets a comment line, so that
// a client that went away is noticed (the write fails) and nothing on the
// way closes the connection for being idle.
var liveKeepAlive = 15 * time.Second

// liveWriteTimeout bounds one write to a client; a client that does not
// read for that long is dropped, so it cannot hold a goroutine forever.
const liveWriteTimeout = 10 * time.Second

// liveRetry is the reconnection delay the stream asks EventSource for, in
// milliseconds: after a restart the page comes back within a second.
const liveRetry = 500

// bootID tells this process's states from an earlier run's, whose
// snapshot ids started at 1 too.
var bootID = strconv.FormatInt(time.Now().UnixNano(), 36)

// broker fans state changes out to live-reload clients.
type broker struct {
	mu      sync.Mutex
	clients map[chan struct{}]struct{}
	done    chan struct{} // closed by close: every stream ends
	closed  bool

	// extra are problems found outside the content (the config file, the
	// theme), shown beside the snapshot's; see Server.ReportProblems.
	extra atomic.Pointer[[]pipeline.Problem]
}

func newBroker() *broker {
	return &broker{clients: map[chan struct{}]struct{}{}, done: make(chan struct{})}
}

// publish tells every client the state changed. The snapshot itself is
// not needed: woken clients read the server's current state, which is
// this snapshot or a newer one.
func (b *broker) publish(*pipeline.Snapshot) { b.wake() }

// wake never blocks: a client that has a wake-up pending already will
// read the newest state when it takes it.
func (b *broker) wake() {
	b.mu.Lock()
	defer b.mu.Unlock()
	for c := range b.clients {
		select {
		case c <- struct{}{}:
		default:
		}
	}
}

// subscribe registers a client; false once the broker is closed.
func (b *broker) subscribe() (chan struct{}, bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return nil, false
	}
	c := make(chan struct{}, 1)
	b.clients[c] = struct{}{}
	return c, true
}

func (b *broker) unsubscribe(c chan struct{}) {
	b.mu.Lock()
	defer b.mu.Unlock()
	delete(b.clients, c)
}

func (b *broker) close() {
	b.mu.Lock()
	defer b.mu.Unlock()
	if !b.closed {
		b.closed = true
		close(b.done)
	}
}

// count is the number of connected clients.
func (b *broker) count() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.clients)
}

// ReportProblems sets the problems found outside the content, such as a
// config file that does not parse or a template that does not compile, so
// that the live-reload overlay shows them beside the snapshot's. Each call
// replaces the previous list; nil clears it. Live-reload clients hear of
// the change at once, without a new snapshot.
func (s *Server) ReportProblems(problems []pipeline.Problem) {
	cp := append([]pipeline.Problem(nil), problems...)
	s.events.extra.Store(&cp)
	s.events.wake()
}

// CloseEvents ends every live-reload stream and refuses new ones. Call it
// when the server stops (http.Server.RegisterOnShutdown), since Shutdown
// waits for streams that would otherwise never end, or when the server is
// replaced: the browsers reconnect to the new one and reload.
func (s *Server) CloseEvents() { s.events.close() }

// liveVersion names what a page was rendered from: this process, the
// snapshot and the theme. Pages carry it (see liveInject) and the stream
// sends it as each event's id.
func liveVersion(st *state) string {
	return bootID + "-" + strconv.FormatUint(st.snap.ID(), 36) + "-" + strconv.FormatInt(st.theme.loaded.UnixNano(), 36)
}

// liveProblems is the JSON array of the current problems, nil when there
// are none.
func (s *Server) liveProblems(st *state) []byte {
	all := st.snap.Problems()
	if extra := s.events.extra.Load(); extra != nil && len(*extra) > 0 {
		all = append(append([]pipeline.Problem(nil), *extra...), all...)
	}
	if found := st.renderProblems(); len(found) > 0 { // from the pages rendered so far
		all = append(slices.Clip(all), found...)
	}
	if len(all) == 0 {
		return nil
	}
	b, err := json.Marshal(all)
	if err != nil { // cannot happen for strings and ints; say so rather than hide it
		b = []byte(`[{"path":"folio","line":1,"message":"cannot encode the problems"}]`)
	}
	return b
}

// liveClient is what one stream has told its browser so far.
type liveClient struct {
	version  string // the state the browser's page or last reload is from
	problems []byte // the problems last sent, nil when none
}

// connect writes the state a newly connected browser needs; since is the
// version of the page that connects ("" when unknown).
func (c *liveClient) connect(buf *bytes.Buffer, s *Server, st *state, since string) {
	fmt.Fprintf(buf, "retry: %d\n\n", liveRetry)
	c.version = liveVersion(st)
	if since != "" && since != c.version {
		writeEvent(buf, c.version, "reload", strconv.FormatUint(st.snap.ID(), 10))
		return // the reloaded page connects again and gets the rest
	}
	c.update(buf, s, st)
}

// update writes what changed since the last state this client saw:
// problems or clear when the problems differ, then reload when the
// version does.
func (c *liveClient) update(buf *bytes.Buffer, s *Server, st *state) {
	version, problems := liveVersion(st), s.liveProblems(st)
	if !bytes.Equal(problems, c.problems) {
		if problems == nil {
			writeEvent(buf, version, "clear", "")
		} else {
			writeEvent(buf, version, "problems", string(problems))
		}
		c.problems = problems
	}
	if version != c.version {
		writeEvent(buf, version, "reload", strconv.FormatUint(st.snap.ID(), 10))
		c.version = version
	}
}

// writeEvent writes one SSE event. data is one line (JSON or a number).
func writeEvent(buf *bytes.Buffer, id, event, data string) {
	fmt.Fprintf(buf, "id: %s\nevent: %s\ndata: %s\n\n", id, event, data)
}

// liveEvents streams the live-reload events of this server to one
// browser until it goes away or the server closes the stream.
func (s *Server) liveEvents(w http.ResponseWriter, r *http.Request, m match) {
	wake, ok := s.events.subscribe()
	if !ok {
		s.problem(w, r, m, http.StatusServiceUnavailable, "the server is stopping")
		return
	}
	defer s.events.unsubscribe(wake)
	h := w.Header()
	h.Set("Content-Type", "text/event-stream")
	h.Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	rc := http.NewResponseController(w)
	var buf bytes.Buffer
	var c liveClient
	c.connect(&buf, s, s.current.Load(), r.URL.Query().Get("since"))
	tick := time.NewTicker(liveKeepAlive)
	defer tick.Stop()
	for {
		if buf.Len() > 0 && !flushTo(rc, w, &buf) {
			return
		}
		select {
		case <-r.Context().Done():
			return
		case <-s.events.done:
			return
		case <-wake:
			c.update(&buf, s, s.current.Load())
		case <-tick.C:
			buf.WriteString(": keep-alive\n\n")
		}
	}
}

// flushTo sends buf to the client within liveWriteTimeout; false when the
// client is gone or too slow.
func flushTo(rc *http.ResponseController, w http.ResponseWriter, buf *bytes.Buffer) bool {
	rc.SetWriteDeadline(time.Now().Add(liveWriteTimeout))
	_, err := w.Write(buf.Bytes())
	buf.Reset()
	if err == nil {
		err = rc.Flush()
	}
	return err == nil
}
