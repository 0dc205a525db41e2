package server

import (
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"folio/pipeline"
	"folio/render"
)

// Options configure a Server.
type Options struct {
	// Site is the theme: templates/, static/ and sdk/ (see package site).
	Site fs.FS
	// Dev turns on the author's extras (the live-reload script and route,
	// Cache-Control: no-cache, draft badges) and the author's guard: no
	// CORS header, only dev's own Host names, nothing cross-site
	// (devguard.go).
	Dev bool
	// Hosts are the host names dev answers besides loopback ones and the
	// base URL's: an explicit --addr host, so a phone on the LAN can
	// preview.
	Hosts []string
	// Logger receives access and error logs; nil discards them.
	Logger *slog.Logger
	// Started is when the process started: the Last-Modified of assets.
	Started time.Time
}

// A Server answers every route from the current snapshot. It is safe for
// concurrent use; Swap replaces the snapshot atomically.
type Server struct {
	opts    Options
	log     *slog.Logger
	current atomic.Pointer[state]
	theme   atomic.Pointer[theme]
	// table is the route table, made once.
	table atomic.Pointer[table]

	// events fans new snapshots out to live-reload clients (dev only).
	events *broker
	// changes keeps Last-Modified honest across snapshots (modified.go).
	changes changes
	// prepare turns on prepared answers (prepared.go).
	prepare atomic.Bool
}

// state is one snapshot with the representations made from it. They are
// prepared on first use and then shared by every request that loaded the
// same state, so a response never mixes two builds.
type state struct {
	snap   *pipeline.Snapshot
	theme  *theme
	routes *table   // the route table of snap's configuration
	reps   sync.Map // key → *lazyRep
	values sync.Map // key → *lazyValue[T] (values.go)
	// postKeys holds the memo keys of a post's answers, made and boxed
	// once: *pipeline.Post → *postKeys (memoKeys).
	postKeys sync.Map
	items    sync.Map // *pipeline.Page → *itemView (itemOf)
	// fragments are the outputs of the theme's templates run by Cached:
	// fragmentKey → template.HTML.
	fragments sync.Map
	// prepared holds the prepared answers by request path: string →
	// *preparedPath (prepared.go).
	prepared sync.Map
	changes  *changes // the server's; nil in benchmarks of one state
	// prevResolver is the resolver of the state this one replaced (or
	// the one that state had to start from, when nothing was rendered
	// from it): its render context patches it rather than indexing every
	// page again. Only the resolver is kept, never the state, so no chain
	// of states builds up; it is set once, before the state is shared.
	prevResolver render.Resolver
}

type lazyRep struct {
	once sync.Once
	rep  *rep
	err  error
}

// New returns a server answering from snap.
func New(snap *pipeline.Snapshot, opts Options) (*Server, error) {
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.DiscardHandler)
	}
	if opts.Started.IsZero() {
		opts.Started = time.Now()
	}
	s := &Server{opts: opts, log: opts.Logger, events: newBroker()}
	th, err := loadTheme(opts.Site, opts.Dev, opts.Started)
	if err != nil {
		return nil, err
	}
	s.theme.Store(th)
	if err := s.Swap(snap); err != nil {
		return nil, err
	}
	return s, nil
}

// Swap makes snap the snapshot every new request answers from. The old one
// stays valid for requests already running. A snapshot of another section
// brings its own routes, and nothing else changes; a section whose routes
// would collide with folio's own is an error, and the old snapshot stays.
func (s *Server) Swap(snap *pipeline.Snapshot) error {
	routes, err := s.tableFor()
	if err != nil {
		return err
	}
	th := s.theme.Load()
	if styled := th.forStyle(render.HighlightStyle(snap.Config())); styled != th {
		s.theme.CompareAndSwap(th, styled) // made once per style, not per swap
		th = styled
	}
	st := &state{snap: snap, theme: th, routes: routes, changes: &s.changes}
	if old := s.current.Load(); old != nil {
		st.prevResolver = old.resolverToKeep()
	}
	s.current.Store(st)
	s.events.publish(snap)
	return nil
}

// SetSite replaces the theme with the one in site and makes snap (nil:
// the current snapshot) current with it, in one swap. A bad theme is an
// error and the old one stays.
func (s *Server) SetSite(site fs.FS, snap *pipeline.Snapshot) error {
	th, err := loadTheme(site, s.opts.Dev, time.Now())
	if err != nil {
		return err
	}
	if snap == nil {
		snap = s.Snapshot()
	}
	old := s.theme.Swap(th)
	if err := s.Swap(snap); err != nil {
		s.theme.Store(old)
		return err
	}
	return nil
}

// Snapshot returns the snapshot currently served.
func (s *Server) Snapshot() *pipeline.Snapshot { return s.current.Load().snap }

// tableFor returns the route table, made once.
func (s *Server) tableFor() (*table, error) {
	if t := s.table.Load(); t != nil {
		return t, nil
	}
	t, err := newTable(s.opts.Dev)
	if err != nil {
		return nil, err
	}
	s.table.Store(t)
	return t, nil
}

// ServeHTTP answers one request from one state, loaded once: its
// prepared answer (prepared.go), else the row of the route table that
// matches its path.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	keep := s.preparable(r)
	if keep && s.servePrepared(w, r, st) {
		return
	}
	w.Header()["X-Content-Type-Options"] = hdrNosniff // shared, never modified (see repHeaders)
	if s.opts.Dev {
		// Every answer of folio dev, redirects and OPTIONS included; errors
		// replace it with no-store.
		w.Header()["Cache-Control"] = hdrNoCache
		if status, detail := s.devRefusal(r, st.snap.Config().BaseURL); status != 0 {
			s.problem(w, r, match{st: st}, status, detail)
			return
		}
	}
	r = cleanRequestPath(r)
	m := st.routes.find(st, routingPathOf(r.URL))
	if keep && keepKinds[m.route.Kind] {
		m.keep = r.URL.Path
	}
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		m.route.serve(s, w, r, m)
	case http.MethodOptions:
		varyOnAccept(w, m)
		s.options(w, r, m)
	default:
		varyOnAccept(w, m)
		w.Header().Set("Allow", "GET, HEAD")
		s.problem(w, r, m, http.StatusMethodNotAllowed, fmt.Sprintf("method %s is not allowed; this service is read-only", r.Method))
	}
}

// varyOnAccept sets Vary: Accept on an answer other than GET's on a row
// that negotiates: every response from such a URL carries it. A
// multilingual site's / does not negotiate: its GET is a 301 to the
// default language's home (homeMoved).
func varyOnAccept(w http.ResponseWriter, m match) {
	if m.route.Negotiates && !(m.route.Kind == KindHome && homeMoved(m.st)) {
		w.Header()["Vary"] = hdrVaryAccept
	}
}

// cleanRequestPath returns r with its path made clean ("//" merged, "."
// and ".." segments resolved, a trailing slash kept), as nginx does before
// it looks a path up: both then answer such a path with what the clean
// path names, where ServeMux would answer a 307 with a relative Location
// and none of folio's headers. An escaped slash (%2F) is not a separator.
// r itself is not changed: the access log shows the path as sent.
func cleanRequestPath(r *http.Request) *http.Request {
	// The decoded path shows every "//" and dot segment, "%2E" spellings
	// included: without one, nothing is to be done (the common case, and
	// the cheap test).
	if p := r.URL.Path; !strings.Contains(p, "//") && !strings.Contains(p, "/.") {
		return r
	}
	sent := r.URL.EscapedPath()
	// "%2E" is "." (an unreserved character, RFC 3986 section 6.2.2.2), so
	// a dot segment spelled with it is one too, as nginx reads it.
	dotted := sent
	if strings.Contains(sent, "%2") {
		dotted = dotEscapes.Replace(sent)
	}
	clean := cleanPath(dotted)
	if clean == sent {
		return r
	}
	decoded, err := url.PathUnescape(clean)
	if err != nil {
		return r // not a path ServeMux can route either: it answers 404
	}
	u := *r.URL
	u.Path, u.RawPath = decoded, clean
	r = r.WithContext(r.Context())
	r.URL = &u
	return r
}

var dotEscapes = strings.NewReplacer("%2e", ".", "%2E", ".")

// cleanPath is path.Clean that keeps a trailing slash, and ends in one
// where the last segment is "." or "..", as RFC 3986's remove_dot_segments
// (section 5.2.4) and nginx do: "/blog/x/." is "/blog/x/", not "/blog/x".
func cleanPath(p string) string {
	if p == "" || p[0] != '/' {
		p = "/" + p
	}
	c := path.Clean(p)
	dir := strings.HasSuffix(p, "/") || strings.HasSuffix(p, "/.") || strings.HasSuffix(p, "/..")
	if dir && c != "/" {
		c += "/"
	}
	return c
}

// load returns the state for this request; ServeHTTP calls it once and
// the request answers from it to the end. The server never moves a state
// on by itself: a scheduled post appears when the host commits the
// snapshot for its instant (package host), and a server no host runs (the
// static export) answers at its snapshot's instant however long it takes.
func (s *Server) load() *state { return s.current.Load() }

// memo returns the representation key of st, making it on first use.
func (st *state) memo(key string, make func() (*rep, error)) (*rep, error) {
	return st.memoBoxed(key, make)
}

// memoBoxed is memo with the key already an interface value (a string):
// converting a string made at run time to one allocates, which a
// request for a post's page would otherwise pay each time (see
// memoKeys).
func (st *state) memoBoxed(boxed any, make func() (*rep, error)) (*rep, error) {
	return st.lazyRep(boxed).get(st, boxed, make)
}

// memoSlot is memoBoxed with the key's entry kept in slot once found: a
// post's page and Markdown (postKeys) are asked for the most, and then
// cost no lookup in the memo. The entry is the memo's own, so both paths
// make the answer once.
func (st *state) memoSlot(slot *atomic.Pointer[lazyRep], boxed any, make func() (*rep, error)) (*rep, error) {
	l := slot.Load()
	if l == nil {
		l = st.lazyRep(boxed)
		slot.Store(l)
	}
	return l.get(st, boxed, make)
}

// lazyRep returns the memo's entry for boxed, adding an empty one.
func (st *state) lazyRep(boxed any) *lazyRep {
	v, ok := st.reps.Load(boxed)
	if !ok { // LoadOrStore alone would allocate a lazyRep on every call
		v, _ = st.reps.LoadOrStore(boxed, &lazyRep{})
	}
	return v.(*lazyRep)
}

// get makes l's answer on first use and returns it.
func (l *lazyRep) get(st *state, boxed any, make func() (*rep, error)) (*rep, error) {
	l.once.Do(func() {
		l.rep, l.err = make()
		if l.err == nil {
			l.rep = st.changes.settle(boxed.(string), l.rep, time.Now(), st.snap.ID())
		}
	})
	return l.rep, l.err
}
