package host

import (
	"crypto/sha256"
	"io/fs"
	"log/slog"
	"os"
	"time"

	"folio/internal/digest"
	"folio/pipeline"
	"folio/render"
	"folio/server"
	"folio/site"
)

// A Host owns the live snapshot of one command: the one server that
// answers from it for the life of the process, the watcher, and the
// problems found outside the content (the config file, the theme). Load
// makes it; Run applies every change until the command stops. Only Run's
// goroutine changes anything; requests only ever load the server's
// current state.
type Host struct {
	spec Spec
	log  *slog.Logger
	srv  *server.Server

	// Owned by Run's goroutine once Load has returned.
	w       *watcher
	siteDir string // the site folder of the theme last loaded or tried; "" is the embedded one
	// The problems found outside the content, shown beside the
	// snapshot's: the config file's, the theme's.
	configProblems, siteProblems []pipeline.Problem
	// described says what the snapshot's descriptions were made with
	// (Options.Describe): see describer.
	described describedWith
}

// Load is the start of every command: it reads the config, starts the
// watcher the spec asks for (before the content is read, so that nothing
// changed meanwhile goes unseen), builds the first snapshot and the
// server with its theme. check and build stop there; serve and dev go on
// to Run. A config that does not load or names a content folder that is
// not there is ErrConfig; a content folder that cannot be read is not.
func Load(spec Spec) (*Host, error) {
	h := &Host{spec: spec, log: spec.Log}
	if h.log == nil {
		h.log = slog.New(slog.DiscardHandler)
	}
	if h.spec.Started.IsZero() {
		h.spec.Started = time.Now()
	}
	cfg, err := h.readConfig()
	if err != nil {
		return nil, err
	}
	if spec.Watch.any() {
		if h.w, err = h.newWatcher(h.rootsOf(cfg)); err != nil {
			return nil, err
		}
	}
	if err := h.start(cfg); err != nil {
		h.Close()
		return nil, err
	}
	return h, nil
}

// start builds the first snapshot and the server.
func (h *Host) start(cfg *pipeline.Config) error {
	at := h.spec.At
	if at.IsZero() {
		at = time.Now()
	}
	snap, err := h.build(cfg, at)
	if err != nil {
		return err
	}
	siteFS, err := h.theme(cfg.SiteDir, snap)
	h.siteDir = cfg.SiteDir
	if err != nil {
		if !h.spec.ThemeFallback {
			return err
		}
		h.siteProblems = siteProblems(err, cfg.SiteDir)
		h.log.Error("site: using the embedded theme until this is fixed", "err", err)
		siteFS = site.FS
	}
	h.srv, err = server.New(snap, server.Options{Site: siteFS, Dev: h.spec.Dev, Hosts: h.spec.Hosts, Logger: h.log, Started: h.spec.Started})
	if err != nil {
		return err
	}
	h.report()
	for _, w := range cfg.Warnings {
		h.log.Warn("config", "path", w.Path, "line", w.Line, "message", w.Message)
	}
	h.logProblems(nil, snap)
	return nil
}

// readConfig reads the config as the spec says, and checks that its
// content folder is a folder.
func (h *Host) readConfig() (*pipeline.Config, error) {
	cfg, err := ReadConfig(h.spec)
	if err != nil {
		return nil, err
	}
	if err := checkContent(cfg); err != nil {
		return nil, configError{err}
	}
	h.configProblems = cfg.Warnings
	if dir, what := rootOf(cfg); CheckFolder(what, dir) != nil {
		return nil, configError{CheckFolder(what, dir)}
	}
	return cfg, nil
}

// build reads the whole content folder afresh.
func (h *Host) build(cfg *pipeline.Config, now time.Time) (*pipeline.Snapshot, error) {
	fsys, err := openContent(cfg)
	if err != nil {
		return nil, err
	}
	root, _ := rootOf(cfg)
	ropts := renderOptions(cfg)
	opts := pipeline.Options{Root: root, Drafts: h.spec.Drafts, Describe: render.New(ropts).Description, Own: server.OwnPath}
	if h.spec.Cache != "" {
		key := cacheKey(cfg, opts, ropts)
		if f := pipeline.OpenCache(h.spec.Cache, key); f != nil {
			// Read while Build walks the content folders.
			read := make(chan *pipeline.Cache, 1)
			go func() {
				if h.spec.MapCache {
					read <- f.Map(h.spec.CacheWhole != nil && h.spec.CacheWhole(f.Info()))
				} else {
					read <- f.Read()
				}
			}()
			opts.CacheFunc = func() *pipeline.Cache { return <-read }
		} else {
			opts.Cache = pipeline.NewCache(key) // none yet: every file is parsed, and the cache made
		}
	}
	snap, err := pipeline.Build(fsys, cfg, opts, now)
	if err == nil {
		h.described = describedBy(ropts)
	}
	return snap, err
}

// Describer makes the descriptions of posts whose front matter has none:
// Hugo's summary of their content (render's Description), rendered with
// the site's markup and templates.
func Describer(cfg *pipeline.Config) func(*pipeline.Post) string {
	return render.New(renderOptions(cfg)).Description
}

// describer is Options.Describe for cfg, which posts it may describe
// otherwise than the one the snapshot's descriptions were made with (a
// shortcode saved in dev, a SIGHUP), and what it is made with. It is nil
// when it describes every post alike.
//
// A description is render.Renderer.Description: the post's summary
// rendered with nothing but the render options (no other post is known)
// and the post itself. Of the options, the markup settings (markup, base
// URL, section, summary length…) and the render hooks render every post;
// the other templates and the site they see (title, params, language)
// render only the calls of shortcodes, and the hooks, which may read them
// too (a partial, i18n). Every other setting makes no description.
func (h *Host) describer(cfg *pipeline.Config) (func(*pipeline.Post) string, pipeline.Redescribe, describedWith) {
	ropts := renderOptions(cfg)
	now, was := describedBy(ropts), h.described
	var which pipeline.Redescribe
	switch {
	case now.all == was.all:
		return nil, pipeline.RedescribeNone, now
	case now.markup != was.markup || now.hooks || was.hooks:
		which = pipeline.RedescribeAll
	default:
		which = pipeline.RedescribeShortcodes
	}
	return render.New(ropts).Description, which, now
}

// describedWith is what descriptions are made with (describer).
type describedWith struct {
	// markup is the digest of the render options but the templates and
	// the site they see: what renders every post.
	markup [sha256.Size]byte
	// all is the digest of every render option, templates and site too.
	all [sha256.Size]byte
	// hooks: the templates hold a render hook.
	hooks bool
}

// describedBy is what a Renderer of ropts describes posts with.
func describedBy(ropts render.Options) describedWith {
	o := ropts
	o.Templates, o.Site, o.Content, o.Now = nil, nil, nil, time.Time{}
	d := describedWith{markup: digest.Sum(o, nil), hooks: ropts.Templates.HasHooks()}
	var templates [sha256.Size]byte
	if ropts.Templates != nil {
		templates = ropts.Templates.Sum()
	}
	d.all = digest.Sum([...]any{d.markup, ropts.Site, templates, ropts.Content, ropts.Now}, nil)
	return d
}

// renderOptions are the render options of the site of cfg.
func renderOptions(cfg *pipeline.Config) render.Options {
	var site fs.FS
	if cfg.Source != "" {
		site = os.DirFS(cfg.Source)
	}
	return render.OptionsFor(cfg, site)
}

// Server is the handler that answers every request from the current
// snapshot. It is the same server for the life of the host.
func (h *Host) Server() *server.Server { return h.srv }

// Snapshot is the snapshot served now.
func (h *Host) Snapshot() *pipeline.Snapshot { return h.srv.Snapshot() }

// Close stops the watcher. Run closes it when it returns; a host that is
// loaded and never run (check, build, tests) closes it itself.
func (h *Host) Close() {
	h.w.close()
	h.w = nil
}

// report shows the problems found outside the content beside the
// snapshot's (the dev overlay).
func (h *Host) report() {
	h.srv.ReportProblems(append(append([]pipeline.Problem(nil), h.configProblems...), h.siteProblems...))
}
