package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"

	"folio/front"
)

// serveFront serves h through folio's front end (package front, as folio
// serve runs it) up to the layer named, and never returns; each layer
// adds to the one before:
//
//	cap       front.Serve: folio's http.Server settings and its
//	          connection cap (the listener and its ConnState hook)
//	coalesce  + the coalescing connection (the cap's state then kept in
//	          it, as in folio serve)
//	log       + the access log as folio serve writes it: a line per
//	          request into the 64 KiB line buffer, flushed every 100 ms
//	          into a LogWriter, whose goroutine writes stderr
//	discard   instead of log: the access lines made and thrown away
//	          (io.Discard), without the line buffer, its timer and the
//	          LogWriter
//
// Each layer is folio serve's own code: a bare server built up to folio
// one layer at a time, to see which one carries the gap between them.
func serveFront(addr string, h http.Handler, layer string) {
	var opts front.Options
	switch layer {
	case "cap":
	case "coalesce":
		opts.Coalesce = true
	case "log":
		w := front.NewLogWriter(os.Stderr, front.LogBuffer)
		opts.Coalesce, opts.AccessLog, opts.Log = true, w, slog.New(slog.NewTextHandler(w, nil))
	case "discard":
		opts.Coalesce, opts.AccessLog = true, io.Discard
	default:
		fmt.Fprintf(os.Stderr, "nethttp: -front: unknown layer %q\n", layer)
		os.Exit(2)
	}
	ln, err := front.Listen(addr)
	if err != nil {
		panic(err)
	}
	panic(front.Serve(context.Background(), ln, h, opts))
}
