package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"
)

// runDev is the author's server: it listens (127.0.0.1:1313 by default),
// builds the site with the live-reload script in every page, then applies
// every change the watcher sees until SIGTERM or SIGINT. See devHost.
func runDev(ctx context.Context, o *options, stderr io.Writer, log *slog.Logger) int {
	start := time.Now()
	ln, err := listen(listenAddr(o))
	if err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return 1
	}
	defer ln.Close()
	d := newDevHost(o, ln.Addr(), log, start)
	if err := d.start(); err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return exitCode(err)
	}
	loopCtx, stopLoop := context.WithCancel(ctx)
	loopDone := make(chan struct{})
	go func() { defer close(loopDone); d.loop(loopCtx) }()
	defer func() { stopLoop(); <-loopDone }()

	hs := newHTTPServer(d, log)
	// Live-reload streams never end by themselves; Shutdown would wait
	// for them until the drain timeout.
	hs.RegisterOnShutdown(func() { d.current().CloseEvents() })
	snap := d.current().Snapshot()
	fmt.Fprintf(stderr, "folio: serving %s (%d posts, built in %s)\n",
		baseFromAddr(ln.Addr()), len(snap.Posts()), time.Since(start).Round(time.Millisecond))
	return serveUntilDone(ctx, hs, ln, log, nil)
}
