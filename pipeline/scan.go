package pipeline

import (
	"cmp"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/maphash"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"

	"folio/internal/layered"
)

// A unit is one content file: a page "blog/x.md", a leaf bundle's index
// "blog/x/index.md" (the folder's other files are its Resources), or a
// section's "blog/_index.md". Units are found by walking the content
// mounts; folders without an index are walked into, so pages may be
// grouped in subfolders. The other files of the content folders, outside
// leaf bundles, are kept too: they are the sections' files.

// scanned is what a walk of a content folder found.
type scanned struct {
	keys  []string // unit keys
	files []string // files that are not content, outside leaf bundles
	// found, when set, is told each unit key as the walk finds it, with
	// its file's stamp as the walk saw it when withStamps (Options.Cache
	// will want it): reading a folder through an os.Root stats every
	// entry already (os.File.ReadDir), so a stat per file after would
	// only repeat it.
	found      func(key string, stamp fileStamp)
	withStamps bool
}

// add records a unit key the walk found, e its folder's entry for it
// (nil for a folder that cannot be read).
func (out *scanned) add(key string, e fs.DirEntry) {
	out.keys = append(out.keys, key)
	if out.found == nil {
		return
	}
	var st fileStamp
	if out.withStamps && e != nil {
		if info, err := e.Info(); err == nil {
			st, _ = stampOf(info)
		}
	}
	out.found(key, st)
}

// A keyStamp is the stamp of a unit's file, by its key.
type keyStamp struct {
	key   string
	stamp fileStamp
}

// scanContent walks every content mount. found, when not nil, is told
// each unit key as the walk finds it (scanAndParse), with its stamp when
// withStamps.
func (s *Snapshot) scanContent(found func(key string, stamp fileStamp), withStamps bool) (scanned, error) {
	var all scanned
	for _, m := range s.config.contentMounts() {
		one := scanned{withStamps: withStamps, found: found}
		err := s.walkContent(m.Source, true, &one)
		if errors.Is(err, fs.ErrNotExist) {
			continue // a missing mount folder is an empty one
		}
		if err != nil {
			return all, err
		}
		all.keys = append(all.keys, one.keys...)
		all.files = append(all.files, one.files...)
	}
	slices.Sort(all.keys)
	all.keys = slices.Compact(all.keys)
	slices.Sort(all.files)
	all.files = slices.Compact(all.files)
	return all, nil
}

// scan lists the unit keys and other files under dir, a folder of a
// content mount. A missing dir is an empty one; only an unreadable mount
// root is an error.
func (s *Snapshot) scan(dir string) (scanned, error) {
	var out scanned
	err := s.walkContent(dir, true, &out)
	if errors.Is(err, fs.ErrNotExist) {
		return scanned{}, nil
	}
	return out, err
}

// walkContent reads one folder: a leaf bundle's index files are its
// units (the rest are its resources); otherwise its content files are
// units and its folders are walked.
func (s *Snapshot) walkContent(dir string, top bool, out *scanned) error {
	entries, err := s.readDir(dir, out.withStamps)
	if err != nil {
		if top {
			return err
		}
		// An unreadable subfolder is not fatal, but not silent either:
		// it is a key, which reads as a problem naming it (readUnit).
		out.add(dir, nil)
		return nil
	}
	join := func(name string) string {
		if dir == "." {
			return name
		}
		return dir + "/" + name
	}
	filtering := s.config.filtersContent()
	if cm, ok := s.config.mountOfDir(dir); ok && s.config.isBundleDir(cm.rel, s.config.Section) {
		indexes := 0
		for _, e := range entries {
			// An index's name begins with "index.": the test that
			// passes over 100,000 posts without more, before the walk
			// queues the first. An index the author excluded makes no
			// bundle: the folder's pages are pages, as in Hugo.
			if strings.HasPrefix(e.Name(), "index.") && e.Type().IsRegular() && isContentFile(e.Name()) && s.config.parseContentName(e.Name()).isIndex() &&
				(!filtering || s.config.inContentAs(join(e.Name()), false)) {
				out.add(join(e.Name()), e)
				indexes++
			}
		}
		if indexes > 0 {
			return nil
		}
	}
	for _, e := range entries {
		name := e.Name()
		if ignored(name) {
			continue
		}
		p := join(name)
		if filtering && !s.config.inContentAs(p, e.IsDir()) {
			continue // ignoreFiles or excludeFiles leave it out, and what it holds
		}
		switch {
		case e.IsDir():
			s.walkContent(p, false, out)
		case !e.Type().IsRegular():
		case isContentFile(name):
			out.add(p, e)
		default:
			out.files = append(out.files, p)
		}
	}
	return nil
}

// A DirTypesFS lists a folder with its entries' names and types only:
// an entry's Info stats it then. (The FS of an os.Root stats every entry
// as it lists a folder: at 100,000 posts, 0.3 s of CPU that a walk
// wanting no file's stamp does not need.) Entries are sorted by name, as
// fs.ReadDir's are.
type DirTypesFS interface {
	fs.FS
	ReadDirTypes(name string) ([]fs.DirEntry, error)
}

// typedDirs is an FS whose folders are listed by ReadDirTypes, for a
// walk (fs.WalkDir) that asks no entry's Info.
type typedDirs struct{ DirTypesFS }

func (t typedDirs) ReadDir(name string) ([]fs.DirEntry, error) { return t.ReadDirTypes(name) }
func (t typedDirs) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(t.DirTypesFS, name) }

// readDir lists the folder dir of the content; stats says whether each
// entry's Info will be asked for.
func (s *Snapshot) readDir(dir string, stats bool) ([]fs.DirEntry, error) {
	if typed, ok := s.fsys.(DirTypesFS); ok && !stats {
		return typed.ReadDirTypes(dir)
	}
	return fs.ReadDir(s.fsys, dir)
}

// bundleOf is the leaf bundle a path of the site's FS is in (the bundle
// folder itself counts), "" when it is in none: the nearest folder,
// below the mount's root, holding an index content file.
func (s *Snapshot) bundleOf(p string) string {
	cm, ok := s.config.mountOf(p)
	if !ok {
		return ""
	}
	root := strings.TrimSuffix(p, cm.rel)
	root = strings.TrimSuffix(root, "/")
	for dir := p; dir != root && dir != "." && dir != "" && dir != "/"; dir = path.Dir(dir) {
		if s.hasIndex(dir) {
			return dir
		}
	}
	return ""
}

// hasIndex reports whether the folder dir holds a leaf bundle's index:
// index.md (or another content extension), or a language's index.fr.md.
// It stats the names rather than reading the folder, which may hold
// thousands of pages.
func (s *Snapshot) hasIndex(dir string) bool {
	for _, name := range s.config.indexNames() {
		if isFile(s.fsys, dir+"/"+name) {
			return true
		}
	}
	return false
}

// affected returns the unit keys to read again after path p changed: the
// key itself, every known unit below it, and what a scan of a changed
// folder finds. A key that is no longer a unit reads as nil and is dropped.
// Bundles are known from the units (their index files are units), so a
// save costs no look around its folder, which may hold thousands of pages.
//
// The keys a scan found go in found: they are what they are (a scan never
// descends into a bundle); the others are checked against the bundles of
// the keys read with them (parseAll).
func (s *Snapshot) affected(p string, found map[string]bool) ([]string, error) {
	switch b := s.knownBundle(s.units, p); {
	case b != "" && !s.throughLink(b):
		return s.rescanDir(b, found) // in a bundle, or the bundle folder
	case s.throughLink(p):
		// Never followed (symlinks.go): what was there is gone.
		return append([]string{p}, s.unitsBelow(p)...), nil
	}
	if base := path.Base(p); isContentFile(base) && s.config.parseContentName(base).isIndex() {
		if cm, ok := s.config.mountOfDir(path.Dir(p)); ok && s.config.isBundleDir(cm.rel, s.config.Section) {
			return s.rescanDir(path.Dir(p), found) // an index came or went: a bundle did
		}
	}
	info, err := fs.Stat(s.fsys, p)
	switch {
	case err != nil || !info.IsDir():
		// A file, or something gone: read that key again, and forget what
		// was below it if it was a folder.
		return append([]string{p}, s.unitsBelow(p)...), nil
	default:
		return s.rescanDir(p, found)
	}
}

// unitKeys are the keys of a snapshot's units, sorted when first asked
// for, so that the units below a folder are a binary search away instead
// of a walk over every key (2-3 ms of each save at 100,000 posts).
// Snapshots whose units have the same keys (a save of a post) share one.
type unitKeys struct {
	once   sync.Once
	sorted []string
}

// sortedKeys are the keys of s's units, sorted.
func (s *Snapshot) sortedKeys() []string {
	keys := s.keys
	if keys == nil {
		keys = &unitKeys{}
	}
	keys.once.Do(func() {
		keys.sorted = make([]string, 0, s.units.Len())
		for k := range s.units.All {
			keys.sorted = append(keys.sorted, k)
		}
		slices.Sort(keys.sorted)
	})
	return keys.sorted
}

// unitsBelow are the keys of s's units below folder dir, sorted.
func (s *Snapshot) unitsBelow(dir string) []string {
	sorted := s.sortedKeys()
	prefix := dir + "/"
	i, _ := slices.BinarySearch(sorted, prefix)
	j := i
	for j < len(sorted) && strings.HasPrefix(sorted[j], prefix) {
		j++
	}
	return sorted[i:j:j]
}

// knownBundle is the bundle folder at or above p whose index is one of
// the units, "" when there is none.
func (s *Snapshot) knownBundle(units layered.Map[string, *unit], p string) string {
	names := s.config.indexNames()
	for dir := p; dir != "." && dir != "/" && dir != ""; dir = path.Dir(dir) {
		if cm, ok := s.config.mountOfDir(dir); !ok || !s.config.isBundleDir(cm.rel, s.config.Section) {
			continue
		}
		for _, name := range names {
			if _, ok := units.Get(dir + "/" + name); ok {
				return dir
			}
		}
	}
	return ""
}

// rescanDir forgets every unit at or below dir and lists them afresh.
func (s *Snapshot) rescanDir(dir string, found map[string]bool) ([]string, error) {
	keys := append([]string{dir}, s.unitsBelow(dir)...)
	scan, err := s.scan(dir)
	if err != nil {
		return keys, nil // gone or unreadable: its units are dropped
	}
	for _, k := range scan.keys {
		found[k] = true
	}
	return append(keys, scan.keys...), nil
}

// parseAll reads the units named by keys, in parallel. A key that is no
// longer a unit maps to nil. old supplies the previous units, so an
// unchanged file is not parsed again and a broken one keeps its last good
// post.
//
// found are the keys a walk of the content found (nil: all of them, in
// one walk, which never descends into a bundle). Any key is
// a resource when an index a walk found is in a folder above it: a
// changed file, a unit that was below a changed folder, and what a walk
// of a folder inside a bundle found (an update that creates a bundle and
// a folder in it walks both).
func (s *Snapshot) parseAll(keys []string, old layered.Map[string, *unit], found map[string]bool) map[string]*unit {
	batch := make(map[string]*unit, len(keys))
	for _, k := range keys {
		if found == nil || found[k] {
			batch[k] = nil
		}
	}
	out := make(map[string]*unit, len(keys))
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	keep := make([]interned, min(runtime.GOMAXPROCS(0), max(len(keys), 1)))
	for i := range keep {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				walked := found == nil || found[k]
				free := found == nil || s.knownBundle(layered.New(batch), s.outerDir(k)) == ""
				var u *unit
				if walked || !s.throughLink(k) { // a walk follows no link
					u = s.readCompact(k, unitAt(old, k), free, fileStamp{}, &keep[i])
				}
				mu.Lock()
				out[k] = u
				mu.Unlock()
			}
		}()
	}
	for _, k := range keys {
		work <- k
	}
	close(work)
	wg.Wait()
	runtime.KeepAlive(keep) // every worker's, until all are done
	return out
}

// readCompact is readUnit, with a post read now compacted: no snapshot
// shares it yet (compact.go). k keeps what it interns.
func (s *Snapshot) readCompact(key string, prev *unit, outside bool, walked fileStamp, k *interned) *unit {
	u := s.readUnit(key, prev, outside, walked)
	if u != nil && u.post != nil && (prev == nil || u.post != prev.post) {
		compactPost(u.post, s.config.Location, k)
	}
	return u
}

// outerDir is the folder whose bundle, if any, key belongs to: its own
// folder, or the one above for a bundle's index (an index.md is its own
// bundle's page, and a resource only of a bundle above that).
func (s *Snapshot) outerDir(key string) string {
	dir := path.Dir(key)
	if s.config.parseContentName(path.Base(key)).isIndex() {
		dir = path.Dir(dir)
	}
	return dir
}

// hashSeed keys the content hashes. maphash is several times faster than
// FNV on whole files, and its per-process seed is enough: hashes are only
// compared between snapshots of one process.
var hashSeed = maphash.MakeSeed()

// readUnit reads one unit; nil when it is no longer a page.
// outside reports that key is in no bundle (else, not being an index,
// it is a bundle's resource). walked is its file's stamp as the walk
// that found it saw it, zero when there was none.
func (s *Snapshot) readUnit(key string, prev *unit, outside bool, walked fileStamp) *unit {
	cm, ok := s.config.mountOf(key)
	name := path.Base(key)
	if !ok || !isContentFile(name) {
		return s.unreadableFolder(key)
	}
	cn := s.config.parseContentName(name)
	if cn.disabled {
		return nil // a disabled language's: Hugo leaves it out
	}
	file, bundle, slug := key, "", cn.base
	switch {
	case !outside:
		return nil // a bundle's Markdown file is a resource, an index.md in a folder of it too
	case cn.isIndex() && s.config.isBundleDir(parentDir(cm.rel), s.config.Section):
		bundle = path.Dir(key)
		slug = path.Base(bundle)
	case cn.isIndex() && cm.rel == name:
		return nil // an index.md at a mount's root is no bundle
	}
	var resources, contents, locked []string
	var lockedErr map[string]error
	if bundle != "" {
		resources, contents, locked, lockedErr = listResources(s.fsys, bundle)
		if s.config.filtersContent() {
			// Each is a file, whatever its name (LICENSE, CHANGES): not
			// a folder on the way to an inclusion.
			out := func(name string) bool { return !s.config.inContentAs(bundle+"/"+name, false) }
			resources = slices.DeleteFunc(resources, out)
			contents = slices.DeleteFunc(contents, out)
		}
	}
	cache := s.opts.Cache
	if prev != nil || len(locked) > 0 {
		cache = nil // Update's (which shares unchanged posts itself), or warnings
	}
	// The file's stamp: the walk's, or a stat's when the cache has an
	// entry it may match; else the read's (the cache has nothing to
	// match, so the read comes first).
	stamp, stamped := walked, walked != fileStamp{}
	if cache != nil && !stamped && cache.has(key) {
		if info, err := fs.Stat(s.fsys, file); err == nil {
			stamp, stamped = stampOf(info)
		}
	}
	if cache != nil && stamped {
		if post, fileSum := cache.post(key, nil, stamp, resources, contents, s.config); post != nil {
			// Not read: the file has not been written since.
			post.Hash = binary.LittleEndian.Uint64(fileSum[:])
			return &unit{post: post, hash: post.Hash, draft: post.Draft, sum: fileSum, stamp: stamp, cacheable: true, cached: true}
		}
	}
	src, info, err := readPost(s.fsys, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || errors.Is(err, fs.ErrInvalid) {
			return nil // gone
		}
		if errors.As(err, new(*contentError)) {
			return s.failed(prev, file, err) // too large
		}
		return s.failed(prev, file, errorAt(1, "read: %v", err))
	}
	if cache != nil {
		if info != nil {
			// The stat of the file read, before the read: of these bytes
			// or older ones (then the next stamp differs), never newer.
			if st, ok := stampOf(info); ok {
				stamp, stamped = st, true
			}
		}
		stamp = cache.keep(stamp, stamped)
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	h.Write(src)
	for _, r := range resources {
		h.WriteByte(0)
		h.WriteString(r)
	}
	for _, r := range contents {
		h.WriteByte(1)
		h.WriteString(r)
	}
	for _, r := range locked {
		h.WriteByte(2)
		h.WriteString(r)
	}
	sum := h.Sum64()
	if prev != nil && prev.problem == nil && prev.hash == sum {
		return prev
	}
	// The file's SHA-256, which the cache keys its post by, when the
	// cache has an entry to compare it with; else it is made when the
	// cache is written (unit.fileSum), not before the site is served.
	var fileSum [sha256.Size]byte
	var unsummed []byte
	if cache.has(key) {
		fileSum = sha256.Sum256(src)
		if post, _ := cache.post(key, &fileSum, stamp, resources, contents, s.config); post != nil {
			post.Hash = sum
			return &unit{post: post, hash: sum, draft: post.Draft, sum: fileSum, stamp: stamp, cacheable: true, cached: true}
		}
	} else if cache != nil {
		unsummed = src
	}
	if cn.isBranch() {
		slug = path.Base(path.Dir(key))
	}
	post, err := parseContent(file, src, slug, s.config.Location, s.requiresDate(cm, cn))
	if err != nil {
		return s.failed(prev, file, err)
	}
	post.Bundle, post.Resources, post.ContentFiles, post.Hash = bundle, resources, contents, sum
	s.placePage(post, cm, cn, bundle != "")
	described := post.Description == "" && s.opts.Describe != nil
	if described {
		post.Description = s.opts.Describe(post)
	}
	u := &unit{post: post, hash: sum, draft: post.Draft}
	if w := s.swallowedSection(post, cm); w != nil {
		u.warnings = append(u.warnings, *w)
	}
	u.warnings = append(u.warnings, s.emptyTermWarnings(post)...)
	for _, d := range locked {
		u.warnings = append(u.warnings, s.folderProblem(bundle+"/"+d, lockedErr[d]))
	}
	for _, w := range post.keyWarnings {
		w.Path = s.display(file)
		u.warnings = append(u.warnings, w)
	}
	if post.noDate > 0 {
		u.warnings = append(u.warnings, Problem{Path: s.display(file), Line: post.noDate, Severity: Warning,
			Message: "front matter: no date (set date or publishDate); the post is published without one and listed last, as Hugo publishes it"})
	}
	// A description made by rendering shortcodes may depend on more than
	// the cache's key (the files a template reads): such a post is parsed
	// each time.
	u.sum, u.src, u.stamp = fileSum, unsummed, stamp
	u.cacheable = cache != nil && len(u.warnings) == 0 && !(described && hasShortcode(post.Body))
	return u
}

// hasShortcode reports whether a body calls a shortcode.
func hasShortcode(body []Node) bool {
	for i := range body {
		if body[i].Kind == ShortcodeNode {
			return true
		}
	}
	return false
}

// swallowedSection warns about a top-level folder's index.md beside
// other pages: Hugo makes the folder one page (a leaf bundle) and its
// other pages resources, which are not published.
func (s *Snapshot) swallowedSection(p *Post, cm contentMount) *Problem {
	if p.Bundle == "" || strings.Count(cm.rel, "/") != 1 {
		return nil
	}
	n := 0
	for _, r := range p.ContentFiles {
		if isContentFile(path.Base(r)) && !s.config.parseContentName(path.Base(r)).isIndex() { // index.fr.md: a translation
			n++
		}
	}
	if n == 0 {
		return nil
	}
	return &Problem{Path: s.display(p.File), Line: 1, Severity: Warning, Message: fmt.Sprintf(
		"%s makes %s one page, as in Hugo: its %d other Markdown files are not published (name it _index.md to make %s a section)",
		path.Base(p.File), p.Bundle, n, p.Bundle)}
}

// placePage sets where a parsed file sits in the site.
func (s *Snapshot) placePage(p *Post, cm contentMount, cn contentName, bundle bool) {
	m := p.PageMeta
	m.Lang = cmp.Or(cn.lang, cm.mount.Lang, s.config.DefaultLanguage) // a name's language wins over its mount's, as in Hugo
	dir := parentDir(cm.rel)
	switch {
	case cn.isBranch() && dir == "":
		m.Kind, m.Dir, m.Base = KindHome, "", "_index"
	case cn.isBranch():
		m.Kind, m.Dir, m.Base = KindSection, dir, "_index"
	case bundle:
		m.Kind, m.Dir, m.Base = KindPage, parentDir(dir), path.Base(dir)
	default:
		m.Kind, m.Dir, m.Base = KindPage, dir, cn.base
	}
	taxonomies := s.config.Taxonomies
	if l := s.config.Lang(m.Lang); l != nil {
		taxonomies = l.Taxonomies
	}
	s.config.decodePageMeta(p, taxonomies)
}

// requiresDate reports whether a page without a date is worth a warning: a
// regular page of the section folio's config names. (Hugo publishes
// pages without dates; a Hugo site's pages need none.)
func (s *Snapshot) requiresDate(cm contentMount, cn contentName) bool {
	if cn.isBranch() || s.config.Section == "" {
		return false
	}
	top, _, _ := strings.Cut(cm.rel, "/")
	return top == s.config.Section && strings.Contains(cm.rel, "/")
}

// failed records a parse failure, keeping the last good post if any.
func (s *Snapshot) failed(prev *unit, file string, err error) *unit {
	line, msg := 1, err.Error()
	var ce *contentError
	if errors.As(err, &ce) {
		line, msg = ce.line, ce.msg
	}
	u := &unit{problem: &Problem{Path: s.display(file), Line: line, Message: msg}, draft: ce != nil && ce.draft}
	if prev != nil {
		u.post, u.hash = prev.post, prev.hash
	}
	return u
}

// listResources lists a bundle's files below its folder (hidden files and
// editors' temporaries left out), relative to it and sorted: the files it
// publishes, and its content files, which Hugo makes page resources and
// never publishes (a Markdown file with its front matter, drafts
// included, is not served as it is).
//
// locked are the folders below it that cannot be read (relative to it,
// with why), whose files are then neither: each is a problem.
func listResources(fsys fs.FS, bundle string) (files, contents, locked []string, why map[string]error) {
	if typed, ok := fsys.(DirTypesFS); ok {
		fsys = typedDirs{typed} // no entry's Info is asked for
	}
	fs.WalkDir(fsys, bundle, func(p string, d fs.DirEntry, err error) error {
		if err != nil && p != bundle && d != nil && d.IsDir() {
			name := strings.TrimPrefix(p, bundle+"/")
			locked = append(locked, name)
			if why == nil {
				why = map[string]error{}
			}
			why[name] = err
			return nil
		}
		if err != nil || p == bundle {
			return nil
		}
		if ignored(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() || p == bundle+"/index.md" {
			return nil
		}
		name := strings.TrimPrefix(p, bundle+"/")
		if isPageResource(name) {
			contents = append(contents, name)
		} else {
			files = append(files, name)
		}
		return nil
	})
	slices.Sort(files)
	slices.Sort(contents)
	return files, contents, locked, why
}

// unreadableFolder is the unit of a folder of the content that cannot be
// read (a walk lists it as a key): a problem naming it, since the pages
// and files in it are left out. nil for anything else, a folder read
// again once it can be.
func (s *Snapshot) unreadableFolder(key string) *unit {
	info, err := fs.Stat(s.fsys, key)
	if err != nil || !info.IsDir() {
		return nil
	}
	if _, err := fs.ReadDir(s.fsys, key); err != nil {
		p := s.folderProblem(key, err)
		return &unit{problem: &p}
	}
	return nil
}

// folderProblem says that the folder dir cannot be read, and why.
func (s *Snapshot) folderProblem(dir string, err error) Problem {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return Problem{Path: s.display(dir), Line: 1, Message: fmt.Sprintf("folder cannot be read (%v): the pages and files in it are left out", err)}
}

// IsPostFile reports whether a file named name (no folder) is a post to
// the pipeline: a .md file other than _index.md that no editor leaves
// behind.
func IsPostFile(name string) bool { return isPostFile(name) }

func isPostFile(name string) bool {
	return strings.HasSuffix(name, ".md") && name != "_index.md" && !ignored(name)
}

// ignored matches the names Hugo 0.165 leaves out of a content folder:
// hidden files and folders, Emacs' "#x.md#" and backups "x.md~". Other
// names editors make ("x.swp", "4913", "draft.tmp") are files Hugo
// publishes when they stay, and so does folio.
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") || strings.HasSuffix(name, "~")
}

func isFile(fsys fs.FS, p string) bool {
	info, err := fs.Stat(fsys, p)
	return err == nil && info.Mode().IsRegular()
}
