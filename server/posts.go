package server

import (
	"bytes"
	"encoding/json"
	"errors"
	"net/http"
	"slices"
	"strconv"
	"time"

	"folio/pipeline"
)

// postJSON is a Post as CONTRACT fixes it. Field order is the contract's
// example, so bodies read the way the documentation shows them.
type postJSON struct {
	Slug        string   `json:"slug"`
	Title       string   `json:"title"`
	Description string   `json:"description"`
	Category    string   `json:"category,omitempty"`
	Tags        []string `json:"tags"`
	Date        string   `json:"date,omitempty"` // absent for a page without a date, as Hugo publishes one
	Updated     string   `json:"updated,omitempty"`
	URL         string   `json:"url"`
	MarkdownURL string   `json:"markdownUrl"`
	// Draft marks unpublished posts shown by folio dev --drafts.
	Draft bool `json:"draft,omitempty"`
}

// newPostJSON describes p for st: URLs from the configured base URL (never
// the request's Host), dates in whole UTC seconds.
func newPostJSON(st *state, p *pipeline.Post) postJSON {
	cfg := st.snap.Config()
	tags := p.Tags
	if tags == nil {
		tags = []string{}
	}
	j := postJSON{
		Slug:        p.Slug,
		Title:       p.Title,
		Description: p.Description,
		Category:    p.Category,
		Tags:        tags,
		Date:        jsonTime(p.Date),
		URL:         cfg.AbsURL(st.snap.URLOf(p)),
		MarkdownURL: cfg.AbsURL(st.snap.MarkdownURLOf(p)),
		Draft:       st.snap.Options().Drafts && !cfg.Shows(p, st.snap.Now()),
	}
	if !p.Lastmod.IsZero() {
		j.Updated = jsonTime(p.Lastmod)
	}
	return j
}

func jsonTime(t time.Time) string {
	if t.IsZero() {
		return "" // a page without a date
	}
	return t.UTC().Truncate(time.Second).Format(time.RFC3339)
}

// postsBody is the JSON object of a collection or a cursor page. next is
// nil on /api/posts.json (no nextCursor member), and points at "" for the
// last page of a walk (nextCursor: null).
func postsBody(st *state, posts []*pipeline.Post, next *string) ([]byte, error) {
	items := make([]postJSON, len(posts))
	for i, p := range posts {
		items[i] = newPostJSON(st, p)
	}
	var body any
	if next == nil {
		body = struct {
			Items []postJSON `json:"items"`
		}{items}
	} else {
		var cursor *string // null
		if *next != "" {
			cursor = next
		}
		body = struct {
			Items      []postJSON `json:"items"`
			NextCursor *string    `json:"nextCursor"`
		}{items, cursor}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // titles with & or < stay readable; still valid JSON
	if err := enc.Encode(body); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// newest is the latest content date (publish date or lastmod) of posts,
// not later than the snapshot's instant: the Last-Modified of anything made
// from them. Zero when posts is empty.
func newest(st *state, posts []*pipeline.Post) time.Time {
	t := newestDate(posts)
	if t.After(st.snap.Now()) && !st.snap.Now().IsZero() {
		t = st.snap.Now()
	}
	return t
}

// newestDate is the latest content date of posts, as written (a future
// one too).
func newestDate(posts []*pipeline.Post) time.Time {
	var t time.Time
	for _, p := range posts {
		t = latest(t, modified(p))
	}
	return t
}

// modified is when p last changed by its own account: lastmod, else its
// publish date.
func modified(p *pipeline.Post) time.Time { return latest(p.Date, p.Lastmod) }

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

// jsonRep is a JSON document.
func jsonRep(body []byte, mod time.Time) *rep { return newRep("application/json", body, mod) }

// postsJSON answers /api/posts.json: every visible post, newest first.
func (s *Server) postsJSON(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, err := st.memo("posts.json", func() (*rep, error) {
		body, err := postsBody(st, st.snap.Posts(), nil)
		if err != nil {
			return nil, err
		}
		return jsonRep(body, newest(st, st.snap.Posts())), nil
	})
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

// cursorPage answers /api/posts/cursor/<cursor>.json.
//
// A page depends only on where it starts, so pages are memoized by start
// index. Pages that start where a walk of this snapshot starts one (every
// issued cursor) are made once; a cursor from an older snapshot that lands
// elsewhere (posts were added or removed mid-walk) is answered by a page
// made for that request, so that made-up tokens cannot fill memory.
func (s *Server) cursorPage(w http.ResponseWriter, r *http.Request, m match) {
	if _, issued := issuedCursors(m.st)[m.value]; m.keep != "" && !issued {
		m.keep = "" // its page may be made for this request alone
	}
	rp, err := s.cursorRep(m.st, m.value)
	switch {
	case errors.Is(err, pipeline.ErrBadCursor):
		s.problem(w, r, m, http.StatusBadRequest, badCursorDetail(m.value))
	case err != nil:
		s.internalError(w, r, m, err)
	default:
		s.serve(w, r, m, rp)
	}
}

// badCursorDetail says what is wrong with a cursor: its characters, or
// (when they are fine) that no walk of this API issues it. The detail
// names no part of the request, so a static host can answer the first
// case with the same bytes.
func badCursorDetail(token string) string {
	if !pipeline.CursorSyntax(token) {
		return "malformed cursor: a cursor matches " + pipeline.CursorPattern + "; start at 0 and follow nextCursor"
	}
	return "malformed cursor: not a cursor this API issues; start at 0 and follow nextCursor"
}

func (s *Server) cursorRep(st *state, token string) (*rep, error) {
	// The cursors this snapshot issues are looked up directly; decoding
	// is for the others.
	if key, ok := issuedCursors(st)[token]; ok {
		return st.memoBoxed(key, func() (*rep, error) { return cursorPageRep(st, token) })
	}
	items, next, err := st.snap.Page(token, st.snap.Config().API.PageSize)
	if err != nil {
		return nil, err
	}
	start := len(st.snap.Posts())
	if len(items) > 0 {
		start, _ = slices.BinarySearchFunc(st.snap.Posts(), items[0], pipeline.Compare)
	}
	if start%st.snap.Config().API.PageSize != 0 && start != len(st.snap.Posts()) {
		return pageRep(st, items, next)
	}
	return st.memo(cursorKey(start), func() (*rep, error) { return pageRep(st, items, next) })
}

// issuedCursors maps each cursor a walk of st issues to the memo key of
// its page, a string boxed once (see memoBoxed).
func issuedCursors(st *state) map[string]any {
	return stateValue(st, "cursors", func() map[string]any {
		size := st.snap.Config().API.PageSize
		tokens := st.snap.Cursors(size)
		m := make(map[string]any, len(tokens))
		for i, t := range tokens {
			m[t] = cursorKey(i * size)
		}
		return m
	})
}

func cursorKey(start int) string { return "cursor:" + strconv.Itoa(start) }

// cursorPageRep makes the page that token starts.
func cursorPageRep(st *state, token string) (*rep, error) {
	items, next, err := st.snap.Page(token, st.snap.Config().API.PageSize)
	if err != nil {
		return nil, err
	}
	return pageRep(st, items, next)
}

// pageRep is a cursor page of items; next is "" on the last page.
func pageRep(st *state, items []*pipeline.Post, next string) (*rep, error) {
	body, err := postsBody(st, items, &next)
	if err != nil {
		return nil, err
	}
	return jsonRep(body, newest(st, items)), nil
}
