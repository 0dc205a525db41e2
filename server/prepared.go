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
// representation and, for each of its encodings, every header of its
// answer, made by the same code a request runs (serve), as shared
// values. From then on a GET or HEAD of that path in the same state
// looks the path up once and writes the prepared answer, as a bare
// net/http handler would, without routing, the handler's own lookups or
// the headers' rules.
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

// preparedRep is a representation with the headers of its answers, by
// form: [0] as it is, then rp.encoded's, in order (folio makes at most
// one: gzip). The collector marks every object a state keeps in each
// cycle, so a path's prepared answer is three: preparedPath, this, and
// one array of fields that the forms' slices share.
type preparedRep struct {
	rp    *rep
	forms [2]preparedForm
}

// preparedForm is the headers of one form's answers: a 304 sends
// validators, a 200 adds entity.
type preparedForm struct {
	validators, entity []field
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
	rp, f := a.rp, &a.forms[0]
	body, etag, file := rp.body, rp.etag, rp.file
	if len(rp.encoded) > 0 {
		if e := pickEncoding(r.Header["Accept-Encoding"], rp.encoded); e != nil {
			for j := range rp.encoded {
				if &rp.encoded[j] == e {
					f = &a.forms[j+1]
				}
			}
			body, etag, file = e.body, e.etag, e.file
		}
	}
	status := conditional(r, etag, rp.modified)
	if status == http.StatusPreconditionFailed {
		return false // the handler's problem answer
	}
	h := w.Header()
	for _, fl := range f.validators {
		h[fl.key] = fl.value
	}
	if status == http.StatusNotModified {
		w.WriteHeader(http.StatusNotModified)
		return true
	}
	for _, fl := range f.entity {
		h[fl.key] = fl.value
	}
	w.WriteHeader(http.StatusOK)
	if r.Method != http.MethodHead {
		writeBody(w, body, file)
	}
	return true
}

// keep prepares rp as the answer to m's path (m.keep) for m's media,
// unless it is there already.
func (s *Server) keep(m match, rp *rep) {
	if len(rp.encoded) >= len(preparedRep{}.forms) {
		return // more forms than a preparedRep holds
	}
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

// prepareRep makes rp's headers for each of its forms by the code serve
// runs, so that a prepared answer sends what serve would.
func (s *Server) prepareRep(m match, rp *rep) *preparedRep {
	a := &preparedRep{rp: rp}
	var validators, entity [1 + len(a.forms)]http.Header
	n := 0
	for i := range 1 + len(rp.encoded) {
		hdr := &rp.hdr
		if i > 0 {
			hdr = &rp.encoded[i-1].hdr
		}
		validators[i] = http.Header{"X-Content-Type-Options": hdrNosniff}
		s.validatorHeaders(validators[i], m, rp, hdr)
		entity[i] = http.Header{}
		entityHeaders(entity[i], hdr)
		n += len(validators[i]) + len(entity[i])
	}
	all := make([]field, 0, n)
	slice := func(h http.Header) []field {
		from := len(all)
		for k, v := range h {
			all = append(all, field{k, v})
		}
		return all[from:len(all):len(all)]
	}
	for i := range 1 + len(rp.encoded) {
		a.forms[i].validators = slice(validators[i])
		a.forms[i].entity = slice(entity[i])
	}
	return a
}
