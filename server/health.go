package server

import (
	"net/http"
	"strconv"
)

// healthz answers 200 "ok" while a snapshot is loaded. New takes a
// snapshot and Swap never stores none, so a running Server always answers
// 200; the 503 branch is what a server without one would say, and keeps
// the contract's promise should that ever change.
//
// It is a representation like any other (ETag, Last-Modified: when the
// process started), but never stored by caches: a stale "ok" would hide an
// outage.
func (s *Server) healthz(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	if st == nil || st.snap == nil {
		body := "no snapshot loaded"
		h := w.Header()
		h.Set("Content-Type", "text/plain; charset=utf-8")
		h.Set("Cache-Control", "no-store")
		h.Set("Content-Length", strconv.Itoa(len(body)))
		w.WriteHeader(http.StatusServiceUnavailable)
		if r.Method != http.MethodHead {
			w.Write([]byte(body))
		}
		return
	}
	rp, _ := st.memo("healthz", func() (*rep, error) {
		return newRep("text/plain; charset=utf-8", []byte("ok"), s.opts.Started), nil
	})
	s.serve(w, r, m, rp) // never stored by caches: the row's CacheNoStore
}
