package server

import (
	"net/http"
	"strings"
	"sync/atomic"
)

// Prepared answers (folio serve only: PrepareAnswers). The first GET or
// HEAD of a path goes through the route table and its row's handler,
// which, for a row whose answer is a memoized representation of the
// state, keeps it under the path as the request spelled it: the
// representation and the headers the row's rules give its answers,
// made once by the code a request runs (serve's commonHeaders), as
// shared values beside the representation's own. From then on a GET or
// HEAD of that path in the same state looks the path up once and writes
// the prepared answer, as a bare net/http handler would, without
// routing, the handler's own lookups or the rows' rules.
//
// Whatever the prepared answer cannot tell is still decided per request,
// by the code the handler runs: Accept's negotiation on a row that
// negotiates (each media kept apart, a 406 left to the handler), the
// encoding (pickEncoding), the preconditions (conditional: a 304 from
// the prepared headers, a 412 left to the handler), HEAD. Anything else
// goes the whole way: other methods, a path to be cleaned or spelled
// with escapes (the route table reads those its own way), folio dev, a
// path not yet answered, a representation made for one request only (a
// cursor this snapshot does not issue). A state keeps its own prepared
// answers, so a new snapshot (a post scheduled for now, an edit) starts
// with none; they are bounded by the paths its site has.

// PrepareAnswers turns prepared answers on (folio serve calls it before
// serving). The static export leaves them off: it asks for each path
// once, and Release drops what it asked for.
func (s *Server) PrepareAnswers() { s.prepare.Store(!s.opts.Dev) }

// preparedPath is what a state keeps for a path.
type preparedPath struct {
	negotiates bool
	// byMedia holds the answer for an HTML choice (or the row's only
	// one) at 0, for a Markdown choice at 1.
	byMedia [2]atomic.Pointer[preparedRep]
}

// preparedRep is a representation with the headers its answers share,
// made once: the row's (commonHeaders) and X-Content-Type-Options. The
// rest (validators and entity) are rp's own prepared values, by form.
// The collector marks every object a state keeps in each cycle, so a
// path's prepared answer is three: preparedPath, this and its fields.
type preparedRep struct {
	rp     *rep
	common []field
}

type field struct {
	key   string
	value []string
}

// keepKinds are the rows whose handlers serve a representation memoized
// in the state and chosen by the path (and, for a row that negotiates,
// the media) alone.
var keepKinds = map[Kind]bool{
	KindHome: true, KindPage: true, KindMarkdown: true, KindAPIPage: true,
	KindPosts: true, KindCursorPage: true, KindFeed: true,
}

// preparable reports whether r may be answered from, and its answer
// kept as, a prepared answer: a GET or HEAD of a path that needs no
// cleaning and has no escapes, on a server that prepares answers.
func (s *Server) preparable(r *http.Request) bool {
	if !s.prepare.Load() || (r.Method != http.MethodGet && r.Method != http.MethodHead) || r.URL.RawPath != "" {
		return false
	}
	p := r.URL.Path
	return p != "" && !strings.Contains(p, "//") && !strings.Contains(p, "/.")
}

// servePrepared answers r from st's prepared answer for its path, and
// reports whether it did; when it did not, it has written nothing.
func (s *Server) servePrepared(w http.ResponseWriter, r *http.Request, st *state) bool {
	v, ok := st.prepared.Load(r.URL.Path)
	if !ok {
		return false
	}
	pp := v.(*preparedPath)
	i := 0
	if pp.negotiates {
		switch negotiate(acceptOf(r)) {
		case mediaHTML:
		case mediaMarkdown:
			i = 1
		default:
			return false // 406: the handler says why
		}
	}
	a := pp.byMedia[i].Load()
	if a == nil {
		return false
	}
	rp := a.rp
	body, etag, hdr, file := rp.form(r)
	status := conditional(r, etag, rp.modified)
	if status == http.StatusPreconditionFailed {
		return false // the handler's problem answer
	}
	h := w.Header()
	for _, fl := range a.common {
		h[fl.key] = fl.value
	}
	validators(h, hdr)
	if status == http.StatusNotModified {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	entityHeaders(h, hdr)
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		writeBody(w, body, file)
	}
	return true
}

// keep prepares rp as the answer to m's path (m.keep) for m's media,
// unless it is there already.
func (s *Server) keep(m match, rp *rep) {
	i := 0
	if m.route.Negotiates {
		switch m.media {
		case mediaHTML:
		case mediaMarkdown:
			i = 1
		default:
			return
		}
	}
	v, ok := m.st.prepared.Load(m.keep)
	if !ok {
		v, _ = m.st.prepared.LoadOrStore(m.keep, &preparedPath{negotiates: m.route.Negotiates})
	}
	pp := v.(*preparedPath)
	if a := pp.byMedia[i].Load(); a != nil && a.rp == rp {
		return
	}
	pp.byMedia[i].Store(s.prepareRep(m, rp))
}

// prepareRep makes the headers rp's answers on m's row share, by the
// code serve runs (commonHeaders), so that a prepared answer sends what
// serve would.
func (s *Server) prepareRep(m match, rp *rep) *preparedRep {
	h := http.Header{"X-Content-Type-Options": hdrNosniff}
	s.commonHeaders(h, m, rp)
	a := &preparedRep{rp: rp, common: make([]field, 0, len(h))}
	for k, v := range h {
		a.common = append(a.common, field{k, v})
	}
	return a
}
