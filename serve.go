package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"time"

	"folio/server"
	"folio/site"
)

// runServe is the production host.
func runServe(ctx context.Context, o *options, log *slog.Logger) int {
	start := time.Now()
	ln, err := net.Listen("tcp", listenAddr(o))
	if err != nil {
		log.Error("listen", "err", err)
		return 1
	}
	cfg, err := loadConfig(o)
	if err != nil {
		log.Error("config", "err", err)
		return 2
	}
	if !cfg.BaseSet {
		cfg.BaseURL = baseFromAddr(ln.Addr())
	}
	o.baseURL = cfg.BaseURL
	snap, err := loadSnapshot(o, false)
	if err != nil {
		log.Error("content", "err", err)
		return 1
	}
	for _, p := range snap.Problems {
		log.Warn("problem", "path", p.Path, "line", p.Line, "message", p.Message)
	}
	siteFS, err := openSite(snap.Config.SiteDir)
	if err != nil {
		log.Error("site", "err", err)
		return 1
	}
	srv, err := server.New(snap, server.Options{Site: siteFS, Logger: log, Started: start})
	if err != nil {
		log.Error("site", "err", err)
		return 1
	}
	go srv.RunSchedule(ctx)
	hs := &http.Server{
		Handler:           srv,
		ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout:       30 * time.Second,
		WriteTimeout:      60 * time.Second,
		IdleTimeout:       120 * time.Second,
		MaxHeaderBytes:    64 << 10,
	}
	fmt.Fprintf(os.Stderr, "folio: serving %s (%d posts, built in %s)\n", baseFromAddr(ln.Addr()), len(snap.Posts), time.Since(start).Round(time.Millisecond))
	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
	select {
	case err := <-errc:
		log.Error("serve", "err", err)
		return 1
	case <-ctx.Done():
	}
	shutdown, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdown); err != nil && !errors.Is(err, http.ErrServerClosed) {
		log.Warn("shutdown", "err", err)
	}
	return 0
}

// openSite returns the embedded theme, or the folder that replaces it.
func openSite(dir string) (fs.FS, error) {
	if dir == "" {
		return site.FS, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("siteDir: %w", err)
	}
	return root.FS(), nil
}
