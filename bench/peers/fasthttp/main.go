// Command fasthttp answers every request with one prepared answer through
// valyala/fasthttp, a server that does not run http.Handlers: how far a
// different HTTP server would move the ceiling.
package main

import (
	"time"

	"github.com/valyala/fasthttp"

	"folio/bench/peers"
)

func main() {
	a := peers.Flags()
	etag := []byte(a.ETag)
	h := func(c *fasthttp.RequestCtx) {
		hd := &c.Response.Header
		if string(c.Request.Header.Peek("If-None-Match")) == a.ETag {
			for _, kv := range a.Header {
				if kv[0] != "Content-Encoding" && kv[0] != "Content-Type" {
					hd.Set(kv[0], kv[1])
				}
			}
			hd.SetBytesV("Etag", etag)
			c.SetStatusCode(fasthttp.StatusNotModified)
			return
		}
		for _, kv := range a.Header {
			hd.Set(kv[0], kv[1])
		}
		hd.SetBytesV("Etag", etag)
		c.SetBody(a.Body)
	}
	s := &fasthttp.Server{Handler: h, ReadTimeout: 30 * time.Second,
		WriteTimeout: 60 * time.Second, IdleTimeout: 120 * time.Second}
	panic(s.ListenAndServe(a.Addr))
}
