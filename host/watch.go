package host

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"folio/pipeline"
	"folio/watch"
)

// A host watches everything its Spec asks for with one watch.Watcher, so
// that one change touching several of them (a git checkout that writes
// config.toml, then the posts) is one burst, one delivery and one
// snapshot: two watchers would each end their own burst, and the first
// delivery would make a snapshot from half the change. Its roots, in this
// order:
//
//   - the content folder, with everything in it;
//   - the site folder, with everything in it, when watched and the
//     config sets one;
//   - by name only, the folders that hold the content folder, the site
//     folder and (when watched) the config file: they see those created,
//     replaced or removed, and nothing else there.
//
// The config file needs this because it may not exist at start
// (./config.toml is optional: the defaults apply until the author writes
// one), may be deleted (back to the defaults) and is replaced by a rename
// when most editors save it or git checks it out. A file root needs the
// file to exist at start, so its folder is a names-only root: nothing
// below it is watched (the config's folder is often the project root,
// with .git, the content, maybe a Go module), and no other file in it
// starts a burst, so none causes a rebuild.
//
// The content and site folders need it because a folder removed while a
// snapshot still reads through a handle on it sends no removal event
// until that handle is closed: without a watch on the folder above, a
// content folder replaced by git or by hand would go unseen, and the
// watcher would keep watching the deleted one. So before each delivery is
// applied, the folders at those paths are compared with the ones the
// watcher was started on, and a new one gets a new watcher and a fresh
// build (change.replaced).

// roots are the folders watched, as the config names them: the content
// folder and the site folder ("" when it is not watched or there is none).
//
// The content folder of a Hugo site is the site's folder: its content,
// static and assets folders, and its config files, which are seen there
// (configPathIn) rather than by a names-only root.
type roots struct {
	content, site string
	hugo          bool
	env           string // the config environment, whose config/<env>/ is read
	// themes are the site's theme and module folders (Config.Themes),
	// one a line: a comparable value, so that roots still compare.
	themes string
	// static are the folders mounted as the site's static files, one a
	// line: Hugo publishes every file in them, hidden ones and editors'
	// backups too, so the watcher ignores none of their names.
	static string
}

// templatePath reports whether rel, a path in a Hugo site's folder, is
// one the site's templates are read from (render.LoadTemplates): below
// the site's or a theme's layouts/, a shortcode, partial or render hook
// (a _shortcodes, shortcodes, _partials, partials or _markup folder at
// any depth), and the i18n and data folders. A save there makes no new
// content, but the pages that use it show something else: the site is
// read again, as for a config save. Hugo's own layouts (single.html,
// …), which folio does not run, are not.
func (r roots) templatePath(rel string) bool {
	bases := []string{""}
	for theme := range strings.SplitSeq(r.themes, "\n") {
		if theme != "" {
			bases = append(bases, theme+"/")
		}
	}
	for _, base := range bases {
		in, ok := strings.CutPrefix(rel, base)
		if !ok {
			continue
		}
		top, rest, _ := strings.Cut(in, "/")
		switch top {
		case "i18n", "data":
			return true
		case "layouts":
			for seg := range strings.SplitSeq(rest, "/") {
				switch seg {
				case "_shortcodes", "shortcodes", "_partials", "partials", "_markup":
					return true
				}
			}
		}
	}
	return false
}

// watcher is the watcher of one set of roots.
type watcher struct {
	*watch.Watcher
	roots roots
	// The index of the site folder's root (-1 for none) and of the
	// names-only root of the config file's folder (-1 when the config is
	// not watched), where the file is configName. The content folder's
	// root is 0.
	siteRoot, configRoot   int
	configName, configPath string
	// The content and site folders as found just before the watcher
	// started (nil when missing or the embedded theme): a folder replaced
	// in between differs, and is watched again at the next delivery.
	content, site os.FileInfo
}

// rootsOf are the folders the spec watches under cfg.
func (h *Host) rootsOf(cfg *pipeline.Config) roots {
	root, _ := rootOf(cfg)
	r := roots{content: root, hugo: cfg.Source != "", env: cfg.Environment}
	if r.hugo {
		r.themes = strings.Join(cfg.Themes, "\n")
		var static []string
		for _, m := range cfg.Mounts {
			if (m.Target == "static" || strings.HasPrefix(m.Target, "static/")) && m.Source != "." && m.Source != "" {
				static = append(static, m.Source)
			}
		}
		r.static = strings.Join(static, "\n")
	}
	if h.spec.Watch.Site {
		r.site = cfg.SiteDir
	}
	return r
}

// newWatcher starts watching r and, when the spec says so, the config
// file.
func (h *Host) newWatcher(r roots) (*watcher, error) {
	w := &watcher{roots: r, siteRoot: -1, configRoot: -1, content: statOrNil(r.content), site: statOrNil(r.site)}
	list := []watch.Root{{Path: r.content}}
	if r.site != "" {
		w.siteRoot = len(list)
		list = append(list, watch.Root{Path: r.site})
	}
	named := []string{r.content, r.site}
	if h.spec.Watch.Config {
		w.configPath = ConfigFile(h.spec)
		named = append(named, w.configPath)
	}
	byName, err := namesRoots(named)
	if err != nil {
		return nil, err
	}
	if w.configPath != "" {
		config, err := filepath.Abs(w.configPath)
		if err != nil {
			return nil, err
		}
		w.configName = filepath.Base(config)
		for i, root := range byName {
			if root.Path == filepath.Dir(config) {
				w.configRoot = len(list) + i
			}
		}
	}
	opts := h.spec.WatchOptions
	if opts.Logger == nil {
		opts.Logger = h.log
	}
	if r.hugo {
		opts.Ignore = siteIgnore(opts.Ignore, r)
	}
	opts.Hold = append(slices.Clip(opts.Hold), gitLocks(named)...)
	if w.Watcher, err = watch.NewRoots(append(list, byName...), opts); err != nil {
		return nil, err
	}
	return w, nil
}

// batches is the watcher's channel; nil (never ready) without a watcher.
func (w *watcher) batches() <-chan []watch.Batch {
	if w == nil {
		return nil
	}
	return w.Batches()
}

func (w *watcher) close() {
	if w != nil {
		w.Close()
	}
}

// change reads one delivery of the watcher. The config file is left out of
// the content and site paths: its own root reports it.
func (w *watcher) change(batches []watch.Batch) change {
	ch := change{trigger: "watch", config: w.configIn(batches)}
	ch.configFile = ch.config
	if ch.config {
		ch.files++
	}
	content, site := w.replaced()
	ch.replaced = content || site
	ch.rescan, ch.site = content, site
	for _, b := range batches {
		if b.Index != 0 && b.Index != w.siteRoot {
			continue // names only: the config, or a folder replaced
		}
		paths := w.withoutConfig(b.Root, b.Paths)
		if b.Index == 0 && w.roots.hugo {
			paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool {
				read, config := siteConfig(p, w.roots.env)
				tpl := w.roots.templatePath(p)
				ch.config = ch.config || read || tpl
				ch.configFile = ch.configFile || read
				ch.templates = ch.templates || tpl
				return config
			})
		}
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

// configIn reports whether a delivery is about the config file: its name
// in its folder, or that folder gone or back.
func (w *watcher) configIn(batches []watch.Batch) bool {
	for _, b := range batches {
		if w.configRoot >= 0 && b.Index == w.configRoot && (b.Rescan || slices.Contains(b.Paths, w.configName)) {
			return true
		}
	}
	return false
}

// replaced reports whether the content or site folder now at its path is
// not the one the watcher was started on: made again, renamed over, or
// gone.
func (w *watcher) replaced() (content, site bool) {
	return !sameInfo(w.content, w.roots.content), w.roots.site != "" && !sameInfo(w.site, w.roots.site)
}

func sameInfo(info os.FileInfo, dir string) bool {
	now := statOrNil(dir)
	return info != nil && now != nil && os.SameFile(info, now)
}

func statOrNil(dir string) os.FileInfo {
	if dir == "" {
		return nil
	}
	info, err := os.Stat(dir)
	if err != nil {
		return nil
	}
	return info
}

// withoutConfig drops the config file from paths, a batch of the folder
// root: when the config lies inside the content (or site) folder, that
// root reports its saves too, and the config's root alone must count,
// since it rebuilds everything anyway.
func (w *watcher) withoutConfig(root string, paths []string) []string {
	if w.configPath == "" {
		return paths
	}
	rel, ok := relInside(root, w.configPath)
	if !ok || !slices.Contains(paths, rel) {
		return paths
	}
	return slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == rel })
}

// namesRoots are the names-only roots that watch paths ("" for none) by
// name in their folders, which must exist: one root for each folder,
// absolute, in the order of paths.
func namesRoots(paths []string) ([]watch.Root, error) {
	var roots []watch.Root
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			return nil, err
		}
		dir, name := filepath.Dir(abs), filepath.Base(abs)
		if dir == abs {
			continue // a file system's root: no folder holds it
		}
		i := slices.IndexFunc(roots, func(r watch.Root) bool { return r.Path == dir })
		switch {
		case i < 0:
			roots = append(roots, watch.Root{Path: dir, Names: []string{name}})
		case !slices.Contains(roots[i].Names, name):
			roots[i].Names = append(roots[i].Names, name)
		}
	}
	return roots, nil
}

// relInside returns file relative to dir, slash-separated, when file is
// inside dir.
func relInside(dir, file string) (string, bool) {
	a, err := filepath.Abs(dir)
	if err != nil {
		return "", false
	}
	b, err := filepath.Abs(file)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(a, b)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(rel), true
}

// siteConfig reports whether a path of a Hugo site's folder is one of
// its config files (hugo.* or config.* at the top, anything under
// config/), and whether it is one the site is read from under the
// environment env: not those of config/<other environment>/.
func siteConfig(rel, env string) (read, config bool) {
	if rel == "config" {
		return true, true
	}
	if rest, ok := strings.CutPrefix(rel, "config/"); ok {
		dir, _, _ := strings.Cut(rest, "/")
		return dir == "_default" || dir == env, true
	}
	name := strings.TrimSuffix(rel, filepath.Ext(rel))
	switch filepath.Ext(rel) {
	case ".toml", ".yaml", ".yml", ".json":
		if name == "hugo" || name == "config" {
			return true, true
		}
	}
	return false, false
}

// siteIgnore adds to ignore what a Hugo site's folder holds that is no
// part of its content: Hugo's output and caches, node modules, and the
// site folder (folio's theme) when it lies inside, which its own root
// watches. And it takes from ignore the static folders: Hugo publishes
// every file there (.htaccess, .well-known/, a backup~), and so does
// folio, so a save of one is seen as any other.
func siteIgnore(ignore func(string) bool, r roots) func(string) bool {
	if ignore == nil {
		ignore = watch.DefaultIgnore
	}
	theme, inside := "", false
	if r.site != "" {
		theme, inside = relInside(r.content, r.site)
	}
	return func(rel string) bool {
		top, _, _ := strings.Cut(rel, "/")
		switch {
		case top == "public", top == "resources", top == "node_modules":
			return true
		case inside && (rel == theme || strings.HasPrefix(rel, theme+"/")):
			return true
		case r.inStatic(rel):
			return false
		}
		return ignore(rel)
	}
}

// inStatic reports whether rel is a static folder or lies in one.
func (r roots) inStatic(rel string) bool {
	for dir := range strings.SplitSeq(r.static, "\n") {
		if dir != "" && (rel == dir || strings.HasPrefix(rel, dir+"/")) {
			return true
		}
	}
	return false
}

// gitLocks are the index.lock files of the git repositories that hold the
// paths, if any: git creates its repository's before it writes the first
// file of a checkout, merge or reset and renames it away after the
// last, so the watcher holds a burst while one exists (watch.Options.Hold)
// and a checkout is one rebuild however long git pauses between files.
func gitLocks(paths []string) []string {
	var locks []string
	for _, p := range paths {
		if p == "" {
			continue
		}
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if dir := gitDir(abs); dir != "" {
			if lock := filepath.Join(dir, "index.lock"); !slices.Contains(locks, lock) {
				locks = append(locks, lock)
			}
		}
	}
	return locks
}

// gitDir is the git folder of the repository that holds path: the nearest
// .git at or above it, a folder, or for a linked worktree or a submodule a
// file that names the folder ("gitdir: …"). "" when there is none.
func gitDir(path string) string {
	for dir := path; ; {
		dotgit := filepath.Join(dir, ".git")
		if info, err := os.Stat(dotgit); err == nil {
			if info.IsDir() {
				return dotgit
			}
			return gitDirFile(dotgit)
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

// gitDirFile reads a .git file's "gitdir: PATH", relative to its folder.
func gitDirFile(dotgit string) string {
	b, err := os.ReadFile(dotgit)
	if err != nil || len(b) > 4096 {
		return ""
	}
	rest, ok := strings.CutPrefix(strings.TrimSpace(string(b)), "gitdir:")
	if !ok {
		return ""
	}
	dir := filepath.FromSlash(strings.TrimSpace(rest))
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(dotgit), dir)
	}
	return filepath.Clean(dir)
}
