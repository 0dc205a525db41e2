// Command nethttp answers every request with one prepared answer through
// net/http, as cheaply as an http.Handler can: the ceiling for folio serve.
package main

import (
	"net/http"
	"strconv"
	"time"

	"folio/bench/peers"
)

func main() {
	a := peers.Flags()
	etag := []string{a.ETag}
	length := []string{strconv.Itoa(len(a.Body))}
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hd := w.Header()
		for _, kv := range a.Header {
			hd[kv[0]] = []string{kv[1]}
		}
		hd["Etag"] = etag
		if r.Header.Get("If-None-Match") == a.ETag {
			delete(hd, "Content-Encoding")
			delete(hd, "Content-Type")
			w.WriteHeader(http.StatusNotModified)
			return
		}
		hd["Content-Length"] = length
		w.Write(a.Body)
	})
	// The timeouts folio serve sets, so that both pay for their deadlines.
	s := &http.Server{Addr: a.Addr, Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: 30 * time.Second, WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	panic(s.ListenAndServe())
}
