// Command fasthttp answers a few URLs with folio's exact answers (copied
// from a running folio serve, see package peers) through valyala/fasthttp,
// a server that does not run http.Handlers: how far a different HTTP
// server would move the ceiling.
package main

import (
	"time"

	"github.com/valyala/fasthttp"

	"folio/bench/peers"
)

func main() {
	c := peers.Flags()
	h := func(x *fasthttp.RequestCtx) {
		rt := c.Routes[string(x.Path())]
		if rt == nil {
			x.SetStatusCode(fasthttp.StatusNotFound)
			return
		}
		rep := rt.Pick([]string{string(x.Request.Header.Peek("Accept-Encoding"))})
		hd := &x.Response.Header
		if rep.ETag != "" && string(x.Request.Header.Peek("If-None-Match")) == rep.ETag {
			for _, f := range rep.NotModified {
				for _, v := range f.Values {
					hd.Add(f.Name, v)
				}
			}
			x.SetStatusCode(fasthttp.StatusNotModified)
			return
		}
		for _, f := range rep.Header {
			if f.Name == "Content-Length" {
				continue // SetBody sets it
			}
			for _, v := range f.Values {
				hd.Add(f.Name, v)
			}
		}
		x.SetBody(rep.Body)
	}
	s := &fasthttp.Server{Handler: h, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	panic(s.ListenAndServe(c.Addr))
}
