package host

import (
	"io/fs"
	"slices"
	"strings"
	"time"

	"folio/pipeline"
)

// A change is what one trigger asks of the apply path.
type change struct {
	trigger string // what asked: "signal", "watch", "schedule" (for the log)
	config  bool   // read the config and flags again, and with them everything
	// configFile and templates say why config is set, for the log: a
	// config file changed, or a Hugo site's template (shortcode, partial,
	// render hook, i18n, data), which the site read again brings in.
	configFile, templates bool
	site                  bool     // load the theme again
	rescan                bool     // read the whole content folder again
	paths                 []string // content files or folders that changed, relative to the content folder
	replaced              bool     // a watched folder is not the one watched: watch it again
	schedule              bool     // a scheduled instant has come
	files                 int      // the paths the watcher reported, for the log
}

func (ch change) empty() bool {
	return !ch.config && !ch.site && !ch.rescan && len(ch.paths) == 0 && !ch.schedule
}

// apply is the one path every change takes: the config read again when
// asked, the folders watched again when they moved, the next snapshot
// made from the current one (sharing what did not change), the theme
// loaded again when asked or moved, and then one commit that makes them
// current on the same server, so nothing the server remembers across
// snapshots (the Last-Modified record, the browsers' streams) is lost.
// A step that fails keeps what is served, says why in the log and, for
// the config and the theme, in the dev overlay.
func (h *Host) apply(ch change) {
	if ch.empty() {
		return
	}
	start := time.Now()
	old := h.srv.Snapshot()
	cfg := old.Config()
	if ch.config {
		c, err := h.readConfig()
		if err != nil {
			h.configProblems = configProblems(err, ConfigFile(h.spec))
			h.refuse("reload failed; still serving the previous snapshot", err)
			return
		}
		h.noteGoneConfig(cfg, c)
		cfg = c
	}
	if ch.config || ch.replaced {
		h.watchAgain(cfg, ch.replaced)
	}
	snap, err := h.next(old, cfg, ch, start)
	if err != nil {
		if ch.config {
			h.configProblems = configProblems(err, ConfigFile(h.spec))
			h.refuse("reload failed; still serving the previous snapshot", err)
		} else {
			h.refuse("update failed; still serving the previous snapshot", err)
		}
		return
	}
	if ch.config {
		h.configProblems = cfg.Warnings
	}
	var siteFS fs.FS // nil: the theme stays
	if ch.site || cfg.SiteDir != h.siteDir {
		siteFS = h.newTheme(cfg.SiteDir, snap)
	}
	if snap == old && siteFS == nil {
		h.report()
		return // nothing to serve anew (a schedule that moved already)
	}
	h.commit(old, snap, siteFS, ch, start)
}

// next is the snapshot for cfg after ch, made from old. A config that
// reads the content as before, and a rescan of the same folder, read the
// content again through old, so a post that broke keeps its last good
// version; a content folder that was replaced, or a config that reads it
// another way, is read afresh.
func (h *Host) next(old *pipeline.Snapshot, cfg *pipeline.Config, ch change, now time.Time) (*pipeline.Snapshot, error) {
	root, _ := rootOf(cfg)
	fresh := !old.Config().ReadsLike(cfg) || ((ch.config || ch.rescan) && !sameFolder(old.FS(), root))
	switch {
	case fresh:
		return h.build(cfg, now)
	case ch.rescan || ch.config:
		paths := ch.paths
		if ch.rescan {
			paths = append(cfg.MountSources(), ch.paths...)
		}
		// The config or the templates read again may describe the
		// posts otherwise: they are described again, so that their
		// descriptions (meta tags, feeds, posts.json) and their bodies
		// come from the same templates.
		var describe func(*pipeline.Post) string
		which, described := pipeline.RedescribeNone, h.described
		if ch.config {
			describe, which, described = h.describer(cfg)
		}
		snap, err := old.Reconfigured(cfg, describe, which, paths, now)
		if err == nil {
			h.described = described
		}
		return snap, err
	case len(ch.paths) > 0:
		return old.Update(ch.paths, now)
	case ch.schedule:
		return old.At(now), nil
	}
	return old, nil // the theme alone
}

// newTheme loads the theme of dir for snap. One that does not load keeps
// the theme in use, and says why; it is tried again when its folder
// changes or the config names another.
func (h *Host) newTheme(dir string, snap *pipeline.Snapshot) fs.FS {
	h.siteDir = dir
	siteFS, err := h.theme(dir, snap)
	if err != nil {
		h.siteProblems = siteProblems(err, dir)
		h.log.Error("site: keeping the previous theme", "err", err)
		return nil
	}
	h.siteProblems = nil
	return siteFS
}

// commit makes snap (and the theme in siteFS, when not nil) current. The
// problems found outside the content are reported first, so that browsers
// hear "clear" before the reload the commit brings.
func (h *Host) commit(old, snap *pipeline.Snapshot, siteFS fs.FS, ch change, start time.Time) {
	h.report()
	if h.spec.Swapped != nil && snap != old {
		h.spec.Swapped(snap)
	}
	var err error
	if siteFS != nil {
		err = h.srv.SetSite(siteFS, snap)
	} else {
		err = h.srv.Swap(snap)
	}
	if err != nil {
		h.refuse("update failed; still serving the previous snapshot", err)
		return
	}
	h.logProblems(old, snap)
	h.logCommit(snap, ch, siteFS != nil, start)
}

// refuse logs why a change was not applied, and shows the problems found
// outside the content.
func (h *Host) refuse(msg string, err error) {
	h.log.Error(msg, "err", err)
	h.report()
}

// noteGoneConfig says that the site's config files, read when present,
// are gone: old read some, cfg none.
func (h *Host) noteGoneConfig(old, cfg *pipeline.Config) {
	if h.spec.ConfigFile == "" && len(cfg.ConfigFiles) == 0 && len(old.ConfigFiles) > 0 {
		h.log.Warn("config: " + strings.Join(old.ConfigFiles, ", ") + " gone; the built-in defaults apply")
	}
}

// watchAgain starts a new watcher when the config moves a watched folder
// or one was replaced; the new one starts before the content is read, so
// nothing is missed. If it cannot start (the folder is gone), the old one
// stays.
func (h *Host) watchAgain(cfg *pipeline.Config, replaced bool) {
	if h.w == nil {
		return
	}
	r := h.rootsOf(cfg)
	if r == h.w.roots && !replaced {
		return
	}
	w, err := h.newWatcher(r)
	if err != nil {
		h.log.Error("watch: cannot watch the new folder yet", "err", err)
		return
	}
	h.w.close()
	h.w = w
}

// logProblems logs each problem of snap that old did not have (every one
// when old is nil), with its file and line.
func (h *Host) logProblems(old, snap *pipeline.Snapshot) {
	var before []pipeline.Problem
	if old != nil {
		before = old.Problems()
	}
	for _, p := range snap.Problems() {
		if !slices.Contains(before, p) {
			h.log.Warn("problem", "path", p.Path, "line", p.Line, "message", p.Message)
		}
	}
}

// logCommit writes the one line each commit gets: "reloaded" when the
// config was read again, else "updated"; how many posts and problems the
// site now has, what caused it, and how long it took.
func (h *Host) logCommit(snap *pipeline.Snapshot, ch change, theme bool, start time.Time) {
	msg := "updated"
	if ch.config {
		msg = "reloaded"
	}
	outside := len(h.configProblems) + len(h.siteProblems)
	attrs := []any{"posts", len(snap.Posts()), "problems", len(snap.Problems()) + outside, "trigger", ch.trigger, "changed", what(ch, theme)}
	if ch.files > 0 {
		attrs = append(attrs, "files", ch.files)
	}
	if ch.rescan {
		attrs = append(attrs, "rescan", true)
	}
	attrs = append(attrs, "took", time.Since(start).Round(time.Microsecond))
	if p := h.firstProblem(snap); p != "" {
		attrs = append(attrs, "first", p)
	}
	h.log.Info(msg, attrs...)
}

// what names what a change changed, for the log.
func what(ch change, theme bool) string {
	switch {
	case ch.templates && !ch.configFile:
		return "templates"
	case ch.config:
		return "config"
	case theme:
		return "site"
	case ch.rescan || len(ch.paths) > 0:
		return "content"
	}
	return "schedule"
}

func (h *Host) firstProblem(snap *pipeline.Snapshot) string {
	for _, list := range [][]pipeline.Problem{h.configProblems, h.siteProblems, snap.Problems()} {
		if len(list) > 0 {
			return list[0].String()
		}
	}
	return ""
}
