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
// representation whose bytes changed since the last snapshot gets a
// Last-Modified no earlier than the moment it was prepared, and later
// than the one it replaces; one whose bytes did not change keeps its old
// one, so revalidation stays cheap across reloads.
//
// Within one process this is exact. A restart starts from the content's
// dates again (HTML pages from the start time, which is later than any
// answer of an earlier process): a body edited without lastmod while folio
// was down revalidates by ETag only, which every browser and CDN sends.
type changes struct {
	mu   sync.Mutex
	seen map[string]sent
}

type sent struct {
	etag     string
	modified time.Time
}

// settle returns rp with the Last-Modified it must carry, now being when
// it was prepared; rp itself is never modified (it may be shared).
func (c *changes) settle(key string, rp *rep, now time.Time) *rep {
	if c == nil || rp == nil || rp.modified.IsZero() {
		return rp
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.seen == nil {
		c.seen = make(map[string]sent)
	}
	prev, ok := c.seen[key]
	switch {
	case !ok:
		c.seen[key] = sent{rp.etag, rp.modified}
		return rp
	case prev.etag == rp.etag:
		if prev.modified.Equal(rp.modified) {
			return rp
		}
		return rp.withModified(prev.modified)
	}
	lm := now.UTC().Truncate(time.Second)
	if rp.modified.After(lm) {
		lm = rp.modified
	}
	if !lm.After(prev.modified) { // HTTP dates count whole seconds
		lm = prev.modified.Add(time.Second)
	}
	c.seen[key] = sent{rp.etag, lm}
	return rp.withModified(lm)
}

// withModified is a copy of rp sent with Last-Modified t.
func (rp *rep) withModified(t time.Time) *rep {
	c := *rp
	c.modified = t
	lm := []string{t.Format(http.TimeFormat)}
	c.hdr.lastModified = lm
	c.encoded = slices.Clone(rp.encoded)
	for i := range c.encoded {
		c.encoded[i].hdr.lastModified = lm
	}
	return &c
}
