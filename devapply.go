package main

import (
	"context"
	"errors"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"folio/pipeline"
	"folio/server"
	"folio/watch"
)

// devChange is what one delivery of the watcher asks for.
type devChange struct {
	paths    []string // content paths, relative to the content folder
	rescan   bool     // read the whole content folder again
	site     bool
	config   bool
	replaced bool // the content or site folder is not the one watched
	files    int  // paths reported, for the log
}

// changeOf reads one delivery of the watcher (see devWatch). The config
// file is left out of the content and site paths: its own root reports it.
func (d *devHost) changeOf(batches []watch.Batch) devChange {
	ch := devChange{config: d.w.configIn(batches)}
	if ch.config {
		ch.files++
	}
	content, site := d.replaced()
	ch.replaced = content || site
	ch.rescan, ch.site = content, site
	for _, b := range batches {
		if b.Index != 0 && b.Index != d.w.siteRoot {
			continue // names only: the config, or a folder replaced
		}
		paths := d.withoutConfig(b.Root, b.Paths)
		ch.files += len(paths)
		if b.Index == 0 {
			ch.rescan = ch.rescan || b.Rescan
			ch.paths = append(ch.paths, paths...)
		} else if b.Rescan || len(paths) > 0 {
			ch.site = true
		}
	}
	return ch
}

// apply makes the next snapshot (and theme) from one delivery of the
// watcher and logs the rebuild as one line. A delivery that changes
// nothing read (the config file seen from inside the content folder, a
// folder's name reported after it was already watched again) makes no
// snapshot.
func (d *devHost) apply(ctx context.Context, batches []watch.Batch) {
	start := time.Now()
	ch := d.changeOf(batches)
	if !ch.config && !ch.site && !ch.rescan && len(ch.paths) == 0 {
		return
	}
	what := "content"
	switch {
	case ch.config:
		what = "config"
		d.reloadConfig(ctx, ch.replaced)
	default:
		if ch.replaced {
			// A new watcher first, so that nothing written into the new
			// folder during the build below goes unseen.
			if err := d.rewatch(d.roots); err != nil {
				d.log.Error("watch: cannot watch the new folder yet", "err", err)
			}
		}
		if ch.site {
			what = "site"
			d.reloadSite()
		}
		if ch.rescan || len(ch.paths) > 0 {
			d.reloadContent(ch)
		}
	}
	snap := d.current().Snapshot()
	attrs := []any{"changed", what, "files", ch.files, "posts", len(snap.Posts()),
		"problems", len(snap.Problems()) + len(d.configProblem) + len(d.siteProblem),
		"took", time.Since(start).Round(time.Microsecond)}
	if ch.rescan {
		attrs = append(attrs, "rescan", true)
	}
	if p := d.firstProblem(snap); p != "" {
		attrs = append(attrs, "first", p)
	}
	d.log.Log(ctx, slog.LevelInfo, "rebuilt", attrs...)
}

func (d *devHost) firstProblem(snap *pipeline.Snapshot) string {
	for _, list := range [][]pipeline.Problem{d.configProblem, d.siteProblem, snap.Problems()} {
		if len(list) > 0 {
			return list[0].String()
		}
	}
	return ""
}

// reloadContent reads the changed content paths again. A rescan reads the
// whole section again through Update, so broken posts keep their last
// good version, unless the content folder was replaced (removed and made
// again, renamed over): the snapshot reads through a handle on the old
// folder, so only a fresh Build sees the new one.
func (d *devHost) reloadContent(ch devChange) {
	srv := d.current()
	old := srv.Snapshot()
	paths := ch.paths
	if ch.rescan {
		if !sameFolder(old.FS(), old.Config().ContentDir) {
			next, err := d.build(old.Config())
			if err != nil {
				d.log.Error("rebuild failed; still serving the previous snapshot", "err", err)
				return
			}
			d.swap(srv, next)
			return
		}
		paths = []string{old.Config().Section}
	}
	next, err := old.Update(paths, time.Now())
	if err != nil {
		d.log.Error("update failed; still serving the previous snapshot", "err", err)
		return
	}
	d.swap(srv, next)
}

// sameFolder reports whether fsys still reads the folder at dir.
func sameFolder(fsys fs.FS, dir string) bool {
	a, err := fs.Stat(fsys, ".")
	if err != nil {
		return false
	}
	b, err := os.Stat(dir)
	return err == nil && os.SameFile(a, b)
}

// reloadSite loads the theme again; a broken one keeps the old theme and
// is reported.
func (d *devHost) reloadSite() {
	srv := d.current()
	d.loadSite(srv, srv.Snapshot().Config().SiteDir)
	d.report()
}

// loadSite loads the theme of the site folder dir ("" for the embedded
// one) into srv, or notes why it cannot.
func (d *devHost) loadSite(srv *server.Server, dir string) {
	siteFS, err := openSite(dir)
	if err == nil {
		if d.siteProblem != nil {
			// Clear first, so that browsers hear "clear" before the
			// reload the new theme brings; a theme still broken is
			// reported again just below.
			d.siteProblem = nil
			d.report()
		}
		if dir != "" { // the embedded theme is tested
			err = d.checkSite(srv.Snapshot(), siteFS)
		}
		if err == nil {
			err = srv.SetSite(siteFS)
		}
	}
	d.siteProblem = nil
	if err != nil {
		d.siteProblem = siteProblems(err, dir)
		d.log.Error("site: keeping the previous theme", "err", err)
	}
}

// reloadConfig rebuilds everything from the config file as it is now. If
// it does not load, or names a content folder that is not there, the old
// snapshot stays and the error is reported. replaced: the watched folders
// must be watched again even if the config still names the same ones.
func (d *devHost) reloadConfig(ctx context.Context, replaced bool) {
	cfg, err := d.config()
	if err == nil && d.o.config == "" {
		if _, serr := os.Stat(d.configPath()); errors.Is(serr, fs.ErrNotExist) {
			d.log.Warn("config: " + d.configPath() + " is gone; the built-in defaults apply")
		}
	}
	var roots devRoots
	if err == nil {
		roots, err = d.rootsFor(cfg)
	}
	if err == nil && (roots != d.roots || replaced) {
		err = d.rewatch(roots)
	}
	var snap *pipeline.Snapshot
	if err == nil {
		snap, err = d.build(cfg)
	}
	if err != nil {
		d.configProblem = configProblems(err, d.configPath())
		d.log.Error("config: still serving the previous snapshot", "err", err)
		d.report()
		return
	}
	if d.configProblem != nil {
		d.configProblem = nil
		d.report() // "clear" before the reload below
	}
	srv := d.current()
	oldCfg := srv.Snapshot().Config()
	if cfg.Section != oldCfg.Section {
		// The routes depend on the section: a new server. The old one's
		// browsers lose their stream, reconnect to the new one and reload.
		next, err := d.newServer(snap)
		if err != nil {
			d.configProblem = configProblems(err, d.configPath())
			d.report()
			return
		}
		d.seen(snap)
		d.srv.Store(next)
		srv.CloseEvents()
		d.schedule(ctx)
		d.report()
		return
	}
	if cfg.SiteDir != oldCfg.SiteDir {
		d.loadSite(srv, cfg.SiteDir)
	}
	d.swap(srv, snap)
	d.report()
}

// rewatch replaces the watcher when the config moves a watched folder or
// the folder was replaced. The new one starts before the build that
// follows, so nothing is missed. If it cannot start (the folder is gone),
// the old one stays.
func (d *devHost) rewatch(roots devRoots) error {
	w, err := d.newWatch(roots)
	if err != nil {
		return err
	}
	d.w.Close()
	d.w, d.roots = w, roots
	return nil
}
