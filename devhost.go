package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/site"
	"folio/watch"
)

// A devHost is what folio dev runs: a server in dev mode and one watcher
// on the content folder, the site folder (when the config sets siteDir)
// and the config file, which is seen created, replaced or deleted after
// start (devwatch.go). One goroutine (loop) makes every change, so two
// rebuilds never race; requests only Load the server pointer, and the
// server's snapshot is replaced with one atomic store.
//
//   - Content batches are applied with Snapshot.Update: only the changed
//     files are read again, and a post that breaks keeps its last good
//     version. A Rescan (events lost, the folder replaced) reads the whole
//     section again, still keeping last good versions, unless the folder
//     itself was replaced, which needs a fresh Build.
//   - A site change loads the theme again; a broken template keeps the
//     old theme and is shown as a problem in the browsers' overlay.
//   - A config change rebuilds everything from the new config; a deleted
//     ./config.toml means the defaults again (a deleted --config file is
//     an error, as at start). A config that does not load keeps the old
//     snapshot and is shown as a problem.
//     A new section needs new routes, so a new server: the old one closes
//     its live-reload streams and the browsers reconnect to the new one
//     and reload.
//
// Every rebuild is one log line.
type devHost struct {
	o       *options
	addr    net.Addr
	log     *slog.Logger
	started time.Time
	srv     atomic.Pointer[server.Server]

	// Owned by the loop goroutine once start has returned.
	roots         devRoots
	w             *devWatch
	configProblem []pipeline.Problem
	siteProblem   []pipeline.Problem
	stopSchedule  func()

	// watchOpts tune the watcher (tests shorten nothing, but may log).
	watchOpts watch.Options
	// swapped, when set, sees every snapshot the host makes current, in
	// order, just before it is (tests count them).
	swapped func(*pipeline.Snapshot)
}

// devRoots are the folders watched, as given to the watcher: the content
// folder and the site folder ("" for the embedded theme).
type devRoots struct{ content, site string }

func newDevHost(o *options, addr net.Addr, log *slog.Logger, started time.Time) *devHost {
	return &devHost{o: o, addr: addr, log: log, started: started, stopSchedule: func() {}, watchOpts: watch.Options{Logger: log}}
}

func (d *devHost) current() *server.Server { return d.srv.Load() }

// ServeHTTP answers from the server current when the request arrived. A
// request that names the base URL's loopback host otherwise (localhost
// for 127.0.0.1, or the other way round, same port) is sent to the base
// URL first: the pages' assets are absolute from it and their
// Content-Security-Policy allows their own origin only, so the page would
// load without its styles and scripts. The sample config says localhost,
// dev serves 127.0.0.1: both work.
func (d *devHost) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	srv := d.srv.Load()
	if to := otherLoopback(r, srv.Snapshot().Config().BaseURL); to != "" {
		h := w.Header()
		h.Set("Location", to)
		h.Set("Cache-Control", "no-cache")
		h.Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(http.StatusTemporaryRedirect)
		return
	}
	srv.ServeHTTP(w, r)
}

// otherLoopback is the URL to send r to when its Host is another loopback
// name for base's host and port, "" otherwise.
func otherLoopback(r *http.Request, base string) string {
	b, err := url.Parse(base)
	if err != nil || strings.EqualFold(r.Host, b.Host) {
		return ""
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || port != b.Port() || !isLoopback(host) || !isLoopback(b.Hostname()) {
		return ""
	}
	return strings.TrimSuffix(base, "/") + r.URL.RequestURI()
}

// addrHosts are the host names dev answers because --addr names them:
// its host, or every address of this machine when it is 0.0.0.0 or ::
// (a phone on the LAN asks for the machine's address). Loopback names
// and the base URL's host are answered anyway.
func addrHosts(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsUnspecified() {
		return []string{host}
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var hosts []string
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			hosts = append(hosts, n.IP.String())
		}
	}
	return hosts
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}

// start reads the config, starts watching and builds the first server.
// The watcher starts before the build, so nothing changed in between
// goes unseen. A broken custom theme at start falls back to the embedded
// one, with the error in the overlay.
func (d *devHost) start() error {
	cfg, err := d.config()
	if err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	if d.roots, err = d.rootsFor(cfg); err != nil {
		return fmt.Errorf("%w: %w", errConfig, err)
	}
	if d.w, err = d.newWatch(d.roots); err != nil {
		return err
	}
	snap, err := d.build(cfg)
	if err != nil {
		d.w.Close()
		return err
	}
	srv, err := d.newServer(snap)
	if err != nil {
		d.w.Close()
		return err
	}
	d.srv.Store(srv)
	d.report()
	return nil
}

// config reads the config file and flags again. The base URL is the bound
// address unless --base-url says otherwise, even when the config file
// sets one: pages served by dev must link to dev.
func (d *devHost) config() (*pipeline.Config, error) {
	o := *d.o
	cfg, err := loadConfig(&o)
	if err != nil {
		return nil, err
	}
	if d.o.baseURL == "" {
		cfg.BaseURL, cfg.BaseSet = baseFromAddr(d.addr), false
	}
	return cfg, nil
}

func (d *devHost) rootsFor(cfg *pipeline.Config) (devRoots, error) {
	r := devRoots{content: cfg.ContentDir, site: cfg.SiteDir}
	if info, err := os.Stat(r.content); err != nil || !info.IsDir() {
		if err == nil {
			err = errors.New("not a directory")
		}
		return r, fmt.Errorf("content folder %s: %w", r.content, err)
	}
	return r, nil
}

// build reads the whole content folder afresh.
func (d *devHost) build(cfg *pipeline.Config) (*pipeline.Snapshot, error) {
	fsys, err := openContent(cfg.ContentDir)
	if err != nil {
		return nil, err
	}
	return pipeline.Build(fsys, cfg, pipeline.Options{Root: cfg.ContentDir, Drafts: d.o.drafts}, time.Now())
}

// newServer makes a dev server for snap with the configured theme, or the
// embedded one (and a problem) when that does not load.
func (d *devHost) newServer(snap *pipeline.Snapshot) (*server.Server, error) {
	opts := server.Options{Dev: true, Hosts: addrHosts(d.o.addr), Logger: d.log, Started: d.started}
	siteFS, err := openSite(snap.Config().SiteDir)
	if err == nil && snap.Config().SiteDir != "" {
		err = d.checkSite(snap, siteFS)
	}
	if err == nil {
		opts.Site = siteFS
		srv, err := server.New(snap, opts)
		if err == nil {
			d.siteProblem = nil
			return srv, nil
		}
	}
	d.siteProblem = siteProblems(err, snap.Config().SiteDir)
	d.log.Error("site: using the embedded theme until this is fixed", "err", err)
	opts.Site = site.FS
	return server.New(snap, opts)
}

// swap makes snap current on srv.
func (d *devHost) swap(srv *server.Server, snap *pipeline.Snapshot) {
	d.seen(snap)
	srv.Swap(snap)
}

// seen tells the test hook about a snapshot about to be made current.
func (d *devHost) seen(snap *pipeline.Snapshot) {
	if d.swapped != nil {
		d.swapped(snap)
	}
}

// report shows the problems found outside the content in the overlay.
func (d *devHost) report() {
	d.current().ReportProblems(append(append([]pipeline.Problem(nil), d.configProblem...), d.siteProblem...))
}

// loop applies the watcher's batches and runs scheduled publishing until
// ctx ends. d.w is read again each time round: it may have been replaced.
func (d *devHost) loop(ctx context.Context) {
	d.schedule(ctx)
	defer func() { d.stopSchedule() }()
	defer func() { d.w.Close() }()
	for {
		select {
		case <-ctx.Done():
			return
		case batches, ok := <-d.w.Batches():
			if !ok {
				d.log.Error("watch: the watcher stopped; restart folio dev to see changes")
				<-ctx.Done()
				return
			}
			d.apply(ctx, batches)
		}
	}
}

// schedule runs the current server's scheduled publishing, after stopping
// the previous server's.
func (d *devHost) schedule(ctx context.Context) {
	d.stopSchedule()
	c, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	srv := d.current()
	go func() { defer close(done); srv.RunSchedule(c) }()
	d.stopSchedule = func() { cancel(); <-done }
}
