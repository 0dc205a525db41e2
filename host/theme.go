package host

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"net/http"
	"os"
	"sync"

	"folio/pipeline"
	"folio/server"
	"folio/site"
)

// theme returns the theme of the site folder dir ("" for the embedded
// one) for snap, or the problem that keeps it from being used.
//
// A template can parse and still fail when it runs: a misspelt field, a
// function given the wrong type. Loading the theme does not find that,
// and the pages would answer 500 (under dev without the live-reload
// script, so the browser would neither show the error nor reload when it
// is fixed). So a theme from a folder is tried first: the pages every
// site has are rendered with it on a throwaway server. (The embedded
// theme is tested with the server and not tried.)
func (h *Host) theme(dir string, snap *pipeline.Snapshot) (fs.FS, error) {
	if dir == "" {
		return site.FS, nil
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, configError{fmt.Errorf("siteDir: %w", err)}
	}
	siteFS := root.FS()
	if err := h.tryTheme(snap, siteFS); err != nil {
		return nil, err
	}
	return siteFS, nil
}

// tryTheme renders the home page, the directory, the newest post and the
// 404 page of snap with the theme in siteFS, and returns the first error.
func (h *Host) tryTheme(snap *pipeline.Snapshot, siteFS fs.FS) error {
	rec := &errRecorder{}
	srv, err := server.New(snap, server.Options{Site: siteFS, Dev: true, Logger: slog.New(rec), Started: h.spec.Started})
	if err != nil {
		return err
	}
	defer srv.CloseEvents()
	paths := []string{"/", "/_folio/no-such-page"}
	if d := snap.Directory(); d != nil {
		paths = append(paths, pipeline.EscapePath(d.Path))
	}
	if posts := snap.Posts(); len(posts) > 0 {
		paths = append(paths, "/"+snap.URLOf(posts[0]))
	}
	for _, p := range paths {
		r, err := http.NewRequest(http.MethodGet, "http://localhost"+p, nil) // a Host dev answers
		if err != nil {
			return err
		}
		w := &statusOnly{header: http.Header{}}
		srv.ServeHTTP(w, r)
		if w.code >= 500 {
			if e := rec.first(); e != "" {
				return fmt.Errorf("%s", e)
			}
			return fmt.Errorf("site: %s answers %d", p, w.code)
		}
	}
	return nil
}

// statusOnly is a ResponseWriter that keeps the status and drops the body.
type statusOnly struct {
	header http.Header
	code   int
}

func (w *statusOnly) Header() http.Header { return w.header }

func (w *statusOnly) WriteHeader(code int) {
	if w.code == 0 {
		w.code = code
	}
}

func (w *statusOnly) Write(b []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	return len(b), nil
}

// errRecorder is a slog.Handler that keeps the "err" of the first error
// logged: the server logs why it answered 500 and tells the client nothing.
type errRecorder struct {
	mu  sync.Mutex
	err string
}

func (h *errRecorder) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelError }

func (h *errRecorder) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key != "err" {
			return true
		}
		h.mu.Lock()
		if h.err == "" {
			h.err = a.Value.String()
		}
		h.mu.Unlock()
		return false
	})
	return nil
}

func (h *errRecorder) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h *errRecorder) WithGroup(string) slog.Handler      { return h }

func (h *errRecorder) first() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.err
}
