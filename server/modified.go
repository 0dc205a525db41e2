package server

import (
	"net/http"
	"slices"
	"sync"
	"time"
)

// changes remembers, for each representation the server has prepared (by
// memo key), the ETag it had and the Last-Modified it was sent with. A
// representation's own dates (a post's date or lastmod, the newest post
// of a list, the theme's load time) do not move when a body is edited
// without lastmod, a post is removed or the config changes; If-Modified-
// Since would then answer 304 for bytes the client has never seen. So a
// representation whose bytes changed since the last snapshot is sent with
// the time it was prepared; one whose bytes did not change keeps its old
// Last-Modified, so revalidation stays cheap across reloads.
//
// Last-Modified is never later than the server's clock (RFC 9110 section
// 8.8.2.1), and HTTP dates count whole seconds: bytes that change twice
// within one second keep that second, and a client that revalidates with
// If-Modified-Since inside it may get a 304 for the first of them. That is
// HTTP's own granularity; ETags, which browsers and CDNs send, are exact.
// A request still answering from an older snapshot never overwrites what
// a newer one recorded.
//
// Within one process this is exact to the second. A restart starts from
// the content's dates again (HTML pages from the start time, later than
// any answer of an earlier process): a body edited without lastmod while
// folio was down revalidates by ETag only. The record holds one entry per
// representation the content ever had in this process, so it grows only
// with the content (renamed slugs, removed posts), never with requests.
type changes struct {
	mu   sync.Mutex
	seen map[string]sent
}

type sent struct {
	etag     string
	modified time.Time
	snap     uint64 // the snapshot that recorded it
}

// settle returns rp, prepared at now from snapshot snap, with the
// Last-Modified it must carry; rp itself is never modified (it may be
// shared).
func (c *changes) settle(key string, rp *rep, now time.Time, snap uint64) *rep {
	if c == nil || rp == nil || rp.modified.IsZero() {
		return rp
	}
	if rp.modified.After(now) {
		// A date to come (a site that publishes future posts,
		// buildFuture): no Last-Modified at all rather than one later than
		// the clock, or one that depends on when the process started.
		// The ETag revalidates. (workerd's local runtime even aborts on
		// such a date past 2038.)
		return rp.withModified(time.Time{})
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = make(map[string]sent)
	}
	prev, ok := c.seen[key]
	switch {
	case !ok:
		c.seen[key] = sent{rp.etag, rp.modified, snap}
		return rp
	case prev.etag == rp.etag:
		if prev.modified.Equal(rp.modified) {
			return rp
		}
		return rp.withModified(prev.modified)
	case prev.snap > snap:
		return rp // an older snapshot's bytes: the newer record stands
	}
	lm := now.UTC().Truncate(time.Second)
	if lm.Before(prev.modified) { // the clock went back: do not go with it
		lm = prev.modified
	}
	c.seen[key] = sent{rp.etag, lm, snap}
	return rp.withModified(lm)
}

// withModified is a copy of rp sent with Last-Modified t (none when t
// is zero).
func (rp *rep) withModified(t time.Time) *rep {
	c := *rp
	c.modified = t
	var lm []string // none for the zero time
	if !t.IsZero() {
		lm = []string{t.Format(http.TimeFormat)}
	}
	c.hdr.lastModified = lm
	c.encoded = slices.Clone(rp.encoded)
	for i := range c.encoded {
		c.encoded[i].hdr.lastModified = lm
	}
	return &c
}
