// Command nethttp answers a few URLs with folio's exact answers (copied
// from a running folio serve, see package peers) through net/http, as
// cheaply as an http.Handler can: the ceiling for folio serve.
package main

import (
	"net/http"
	"time"

	"folio/bench/peers"
)

func main() {
	c := peers.Flags()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rt := c.Routes[r.URL.Path]
		if rt == nil {
			http.NotFound(w, r)
			return
		}
		rep := rt.Pick(r.Header["Accept-Encoding"])
		hd := w.Header()
		if inm := r.Header["If-None-Match"]; len(inm) == 1 && inm[0] == rep.ETag && rep.ETag != "" {
			for _, f := range rep.NotModified {
				hd[f.Name] = f.Values
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
		for _, f := range rep.Header {
			hd[f.Name] = f.Values
		}
		w.Write(rep.Body)
	})
	// The limits folio serve sets, so that both pay for their deadlines.
	s := &http.Server{Addr: c.Addr, Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second,
		MaxHeaderBytes: 64 << 10}
	panic(s.ListenAndServe())
}
