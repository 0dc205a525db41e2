package pipeline

import (
	"strings"
	"sync"
)

// cursorMemory remembers the whole slug behind every cut token (one whose
// slug was too long to hold whole) that this process issued, so that the
// token still names an exact position after its post is removed, in any
// later snapshot. Only cut tokens are kept, and only tokens made for real
// posts (a made-up token is looked up, never stored), so it holds at most
// one entry per long-slug (publish date, slug) the process ever served: a
// slug and its token, a few hundred bytes each.
//
// It is shared by every snapshot and read by concurrent requests, hence
// sync.Map: entries are written once and never deleted, the case it is
// made for, and reads take no lock.
type cursorMemory struct {
	slugs sync.Map // token -> whole slug
}

// issued is the process's memory, behind CursorFor and Page.
var issued cursorMemory

// cursorFor returns the token naming the position just after p and, when
// it is cut, remembers p's slug.
func (m *cursorMemory) cursorFor(p *Post) string {
	tok, cut := encodeCursor(p)
	if cut {
		m.remember(tok, p.Slug)
	}
	return tok
}

// remember records slug for tok. Two slugs can share a token only through
// a hash collision; the one that sorts first is kept, so the token can make
// a walk repeat posts but never skip one.
func (m *cursorMemory) remember(tok, slug string) {
	if old, ok := m.slugs.Load(tok); ok && old.(string) <= slug {
		return // the common case: issued before
	}
	// A copy, so that an entry does not keep alive whatever larger string
	// the slug was sliced from.
	slug = strings.Clone(slug)
	old, loaded := m.slugs.LoadOrStore(tok, slug)
	for loaded && slug < old.(string) {
		if m.slugs.CompareAndSwap(tok, old, slug) {
			return
		}
		old, _ = m.slugs.Load(tok)
	}
}

// recall returns the slug remembered for tok.
func (m *cursorMemory) recall(tok string) (string, bool) {
	v, ok := m.slugs.Load(tok)
	if !ok {
		return "", false
	}
	return v.(string), true
}
