package pipeline

import (
	"cmp"
	"crypto/sha256"
	"fmt"
	"io/fs"
	"path"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync/atomic"
	"time"

	"folio/internal/layered"
)

// Options are the build settings that are not site configuration.
type Options struct {
	// Root is the content folder as the user named it; problem paths are
	// Root joined with the file's path inside the content FS.
	Root string
	// Drafts makes drafts, future and expired posts visible (folio dev
	// --drafts).
	Drafts bool
	// Describe makes the description of a post whose front matter has
	// neither description nor summary: Hugo's summary of its content
	// (render's Renderer.Description). It is called once per parse of a
	// file, from several goroutines at once. nil leaves it "".
	Describe func(*Post) string
	// Cache, when set, holds the posts of an earlier build: a file whose
	// bytes are the cached one's is taken from it, not parsed (cache.go),
	// and the snapshot keeps what the next cache needs (EncodeCache).
	Cache *Cache
	// CacheFunc, when set, gives Build its Cache once the content folders
	// are walked, before a file is read: the caller reads the cache file
	// meanwhile (a large site's walk and its cache's read each take a
	// few tenths of a second).
	CacheFunc func() *Cache
	// Own reports whether a URL path (as the site model spells it) is
	// one folio answers with its own route whatever file the site has
	// there (server.OwnPath): a static file there is a warning. nil
	// knows none.
	Own func(path string) bool
}

// A Snapshot is one immutable build of the site: the visible posts in
// contract order, their lookups, and the problems found. Readers share it
// freely; a change produces a new Snapshot (see Update), never a mutation.
// Every field is unexported and read through a method, so nothing outside
// this package can change a snapshot once it is built; the slices the
// methods return are the snapshot's own and must not be modified.
type Snapshot struct {
	config   *Config
	id       uint64
	now      time.Time
	posts    []*Post
	problems []Problem

	opts   Options
	fsys   fs.FS
	units  layered.Map[string, *unit] // by unit key: "blog/x.md" or bundle dir "blog/x"
	keys   *unitKeys                  // units' keys, for unitsBelow
	bySlug layered.Map[string, *Post]
	next   time.Time

	// dups are the slugs more than one visible post has (patch leaves
	// them to assemble), dupProblems the problems of pages claiming one
	// URL.
	dups        map[string]bool
	dupProblems []Problem

	// files are the content folders' files that are not pages (outside
	// leaf bundles), static the static files by URL path, assets the
	// assets' files by path inside the assets folder: all in the FS.
	files  []string
	static map[string]string
	assets map[string]string
	// site is the Hugo site the visible pages make (site.go).
	site *siteModel
	// patched is how patch made it, nil when it was not.
	patched *patched
}

// unitAt is the unit at key k of units, nil when there is none.
func unitAt(units layered.Map[string, *unit], k string) *unit {
	u, _ := units.Get(k)
	return u
}

// unit is what one post file or bundle produced: its last good post and,
// when its current version fails, the problem.
type unit struct {
	post     *Post
	problem  *Problem
	hash     uint64
	warnings []Problem
	// draft: the file is a draft; its problems count only when drafts
	// are shown (folio dev --drafts), as Hugo does not build drafts.
	draft bool
	// With Options.Cache: sum is the SHA-256 of the file's bytes, or
	// src those bytes when the sum is not made yet (fileSum); cacheable
	// says the post may be cached (it has no problem and no warning),
	// cached that it was taken from the cache.
	sum       [sha256.Size]byte
	src       []byte
	stamp     fileStamp // when kept (Cache.keep)
	cacheable bool
	cached    bool
}

// fileSum is the SHA-256 of the unit's file as read, zero when it was
// not read with a cache. A file read on a first start (a cache with no
// entry for it) is hashed here, when the cache is written, rather than
// before the site is served: the bytes are the post's, kept by its text
// anyway, and never written to.
func (u *unit) fileSum() [sha256.Size]byte {
	if u.src != nil {
		return sha256.Sum256(u.src)
	}
	return u.sum
}

var lastID atomic.Uint64

// Build reads every post under the configured section of fsys and returns
// the snapshot for the instant now. Files that fail are reported in
// Problems and left out; only an unreadable section folder is an error.
func Build(fsys fs.FS, cfg *Config, opts Options, now time.Time) (*Snapshot, error) {
	s := &Snapshot{config: cfg, opts: opts, fsys: fsys}
	found, parsed, err := s.scanAndParse(time.Now()) // scanparse.go
	if err != nil {
		return nil, err
	}
	s.files = found.files
	s.static, s.assets = s.scanFiles("static"), s.scanFiles("assets")
	units := make(map[string]*unit, len(found.keys))
	for k, u := range parsed {
		if u != nil { // nil: the file went away between the listing and the read
			units[k] = u
		}
	}
	// The walk listed the keys in order: the units' keys are those of
	// them still there.
	keys := &unitKeys{}
	keys.once.Do(func() {
		keys.sorted = slices.DeleteFunc(found.keys, func(k string) bool { return units[k] == nil })
	})
	return s.assemble(layered.New(units), keys, now), nil
}

// Update returns the next snapshot: this one with the given paths (files
// or folders inside the content FS, created, changed or removed) read
// again. Unchanged posts are shared, not re-parsed. A post whose new version
// fails keeps its last good version and is reported.
func (s *Snapshot) Update(changed []string, now time.Time) (*Snapshot, error) {
	return s.update(changed, now, true)
}

// update is Update; patching is for a snapshot whose site model was made
// under its own config (not Reconfigured's).
func (s *Snapshot) update(changed []string, now time.Time, patching bool) (*Snapshot, error) {
	units := s.units.Next()
	var rescan, other []string
	found := map[string]bool{}
	for _, p := range changed {
		p = path.Clean(strings.TrimPrefix(p, "/"))
		// A change names a file or a folder (maybe gone): either kind
		// in a content mount is looked at again ("v1.2/" under
		// includeFiles is a folder on the way).
		if !s.config.inContentAs(p, false) && !s.config.inContentAs(p, true) {
			other = append(other, p)
			continue
		}
		other = append(other, p)          // a file beside the pages, maybe
		keys, err := s.affected(p, found) // s's units, which units still are
		if err != nil {
			return nil, err
		}
		rescan = append(rescan, keys...)
	}
	slices.Sort(rescan)
	rescan = slices.Compact(rescan)
	for k, u := range s.parseAll(rescan, units, found) {
		if u == nil {
			units.Del(k)
		} else {
			units.Set(k, u)
		}
	}
	base := s.withFiles(other)
	if len(rescan) == 0 && base == s {
		return s.At(now), nil // nothing the site reads changed
	}
	if !patching || base != s {
		// A config's new model, or files beside the pages that came or
		// went (static, assets, a section's): their routes are made
		// with the model's.
		return base.assemble(units, nil, now), nil
	}
	if n := base.patch(units, rescan, now); n != nil {
		return n, nil // the common case: one post edited (patch.go)
	}
	return base.assemble(units, nil, now), nil
}

// Reconfigured returns the next snapshot under a new configuration that
// reads the content as s's does (see Config.ReadsLike): the paths changed
// are read again as by Update, every other post is shared, and the new
// snapshot carries cfg (title, base URL, page size…). When cfg reads the
// content another way, the posts must be parsed afresh: it is an error.
//
// describe, when not nil, replaces Options.Describe: the site's templates
// or markup were read again. The posts whose description the old one made
// and the new one may make otherwise (which) are described again with it,
// and every post read from now on, so that no description keeps what the
// old templates made while the bodies show the new ones.
func (s *Snapshot) Reconfigured(cfg *Config, describe func(*Post) string, which Redescribe, changed []string, now time.Time) (*Snapshot, error) {
	if !s.config.ReadsLike(cfg) {
		return nil, fmt.Errorf("pipeline: the new config reads the content differently; build afresh")
	}
	base := *s // a private copy, never shared: Update makes a new snapshot from it
	base.config = cfg
	if describe != nil {
		base.opts.Describe = describe
		if which == RedescribeAll {
			// Its posts were described by the old markup or hooks. (It
			// holds no post whose body calls a shortcode, readUnit's
			// cacheable: RedescribeShortcodes leaves every entry true.)
			base.opts.Cache = nil
		}
		base.units = base.redescribe(which)
	}
	n, err := base.update(changed, now, false)
	if err != nil || n != &base {
		return n, err
	}
	return base.assemble(base.units, base.keys, now), nil // the config alone changed: a new snapshot of it
}

// At returns the snapshot for another instant: the same files, with the
// published set computed again. It returns s itself when nothing changes.
func (s *Snapshot) At(now time.Time) *Snapshot {
	if s.opts.Drafts || s.next.IsZero() || now.Before(s.next) {
		return s
	}
	return s.assemble(s.units, s.keys, now)
}

// Config is the configuration the snapshot was built with.
func (s *Snapshot) Config() *Config { return s.config }

// ID increases with every snapshot made in this process.
func (s *Snapshot) ID() uint64 { return s.id }

// Now is the instant the published set was computed for.
func (s *Snapshot) Now() time.Time { return s.now }

// Posts are the visible posts, newest first (publish date descending,
// then slug ascending).
func (s *Snapshot) Posts() []*Post { return s.posts }

// Problems are the content errors, sorted by path and line.
func (s *Snapshot) Problems() []Problem { return s.problems }

// NextChange is the next instant a post is scheduled to appear or expire,
// zero when none is.
func (s *Snapshot) NextChange() time.Time { return s.next }

// Post looks a visible post up by slug (unescaped).
func (s *Snapshot) Post(slug string) *Post {
	p, _ := s.bySlug.Get(slug)
	return p
}

// FS is the content file system the snapshot was read from, for bundle
// resources.
func (s *Snapshot) FS() fs.FS { return s.fsys }

// Options returns the build options.
func (s *Snapshot) Options() Options { return s.opts }

// Resource opens a bundle file of a visible post. name is relative to the
// bundle; it must be one of the post's Resources.
func (s *Snapshot) Resource(p *Post, name string) (fs.File, error) {
	if p.Bundle == "" {
		return nil, fs.ErrNotExist
	}
	if _, ok := slices.BinarySearch(p.Resources, name); !ok {
		return nil, fs.ErrNotExist
	}
	return s.fsys.Open(p.Bundle + "/" + name)
}

// AllPosts returns every parsed post, visible or not (a broken file's last
// good version included), sorted by file. Checks use it to tell a link to an
// unpublished post from a link to nothing.
func (s *Snapshot) AllPosts() []*Post {
	keys := s.sortedKeys()
	out := make([]*Post, 0, len(keys))
	for _, k := range keys {
		if u := unitAt(s.units, k); u != nil && u.post != nil {
			out = append(out, u.post) // in file order: a unit's key is its post's file
		}
	}
	return out
}

// DisplayPath is how problems name a file of the content FS: the content
// folder as the user gave it, joined with the file's path.
func (s *Snapshot) DisplayPath(file string) string { return s.display(file) }

// Visible reports whether p is shown by this snapshot.
func (s *Snapshot) Visible(p *Post) bool {
	return s.shows(p, s.now)
}

// shows reports whether p is shown at now: published as the site's
// config has it (SiteConfig.Shows), or anything under Options.Drafts.
func (s *Snapshot) shows(p *Post, now time.Time) bool {
	return s.opts.Drafts || s.config.Shows(p, now)
}

// assemble computes the visible posts, lookups and problems for now.
// keys are the keys of units when known (nil: sorted here).
func (s *Snapshot) assemble(units layered.Map[string, *unit], keys *unitKeys, now time.Time) *Snapshot {
	if keys == nil {
		keys = &unitKeys{}
	}
	n := &Snapshot{config: s.config, id: lastID.Add(1), now: now, opts: s.opts, fsys: s.fsys, units: units, keys: keys,
		files: s.files, static: s.static, assets: s.assets}
	// In key order, so the visible posts are in file order (a unit's key
	// is its post's file) without sorting pointers to them.
	var visible, hidden []*Post
	for _, k := range n.sortedKeys() {
		u := unitAt(units, k)
		if !u.draft || n.opts.Drafts || n.config.BuildDrafts {
			if u.problem != nil {
				n.problems = append(n.problems, *u.problem)
			}
			n.problems = append(n.problems, u.warnings...)
		}
		p := u.post
		if p == nil {
			continue
		}
		n.noteSchedule(p, now)
		if n.shows(p, now) {
			visible = append(visible, p)
		} else if p.Kind == KindSection || p.Kind == KindPage {
			hidden = append(hidden, p)
		}
	}
	for _, f := range n.files {
		if format := otherFormat(path.Base(f)); format != "" && n.config.inContent(f) {
			n.problems = append(n.problems, Problem{Path: n.display(f), Line: 1, Severity: Warning, Message: otherFormatWarning(format)})
		}
	}
	// The posts are sorted beside the site model: those that can be
	// posts (regular pages of the default language), of which the model
	// tells which are (isPost, and which lost their URL).
	var sorted []*Post
	done := make(chan struct{})
	go func() {
		defer close(done)
		sorted = n.sortedPosts(visible)
	}()
	n.site = n.buildSite(visible, hidden)
	var candidates []*Post
	for _, p := range visible {
		if n.isPost(p) {
			candidates = append(candidates, p)
			n.problems = append(n.problems, n.signalWarnings(p)...)
		}
	}
	// Two pages claiming one URL: the site model kept the first, and the
	// other is a problem naming both files. Posts are looked up by slug
	// too; a slug two posts share (at different URLs) makes the first
	// by file the one found, and updates touching it assemble again.
	lost := map[*Post]bool{}
	for _, c := range n.site.clashes {
		lost[c.loser] = true
		n.dupProblems = append(n.dupProblems, Problem{
			Path:    n.display(c.loser.File),
			Line:    c.loser.URLLine(),
			Message: fmt.Sprintf("duplicate URL %s: also claimed by %s", EscapePath(c.path), n.display(c.winner.File)),
		})
	}
	for _, c := range n.site.hiddenAliases {
		if c.alias.owner == nil || c.alias.owner.Post == nil {
			continue // a language's redirect, or a list's /page/1/
		}
		n.dupProblems = append(n.dupProblems, Problem{
			Path:     n.display(c.alias.owner.Post.File),
			Line:     c.alias.owner.Post.AliasesLine(),
			Severity: Warning,
			Message:  fmt.Sprintf("alias %s is also the URL of %s, which is served there, not the redirect (Hugo writes both, and which one it keeps varies from build to build)", EscapePath(c.alias.Path), n.routeSource(c.by)),
		})
	}
	for _, f := range n.site.ownFiles {
		n.dupProblems = append(n.dupProblems, Problem{
			Path:     n.display(f.File),
			Line:     1,
			Severity: Warning,
			Message:  fmt.Sprintf("%s is one of folio's own URLs, which answers with folio's (its API, feed, OpenAPI description or agents' files), not with this file: Hugo publishes the file there, folio does not; move or rename it to publish it", EscapePath(f.Path)),
		})
	}
	for _, c := range n.site.staticTwins {
		n.dupProblems = append(n.dupProblems, Problem{
			Path:     n.display(c.by.File),
			Line:     1,
			Severity: Warning,
			Message:  fmt.Sprintf("%s is the URL of the Markdown of %s (%s): the file is served there, and as the page's Markdown (Accept: text/markdown), in place of folio's, as Hugo publishes it", EscapePath(c.by.Path), EscapePath(c.alias.Path), n.routeSource(c.alias)),
		})
	}
	bySlug := make(map[string]*Post, len(candidates))
	n.dups = map[string]bool{}
	for _, p := range candidates {
		if lost[p] {
			continue
		}
		if _, dup := bySlug[p.Slug]; dup {
			n.dups[p.Slug] = true
			continue
		}
		bySlug[p.Slug] = p
	}
	<-done
	n.posts = make([]*Post, 0, len(candidates))
	for _, p := range sorted {
		if n.isPost(p) && !lost[p] {
			n.posts = append(n.posts, p)
		}
	}
	n.bySlug = layered.New(bySlug)
	n.problems = append(n.problems, n.dupProblems...)
	sort.Slice(n.problems, func(i, j int) bool {
		a, b := n.problems[i], n.problems[j]
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message)) < 0
	})
	return n
}

// sortedPosts are the visible pages that may be posts (regular pages of
// the default language) in the contract's order (Compare), those equal in
// it by file.
func (s *Snapshot) sortedPosts(visible []*Post) []*Post {
	var out []*Post
	for _, p := range visible {
		if p.Kind == KindPage && p.Lang == s.config.DefaultLanguage {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b *Post) int {
		if c := Compare(a, b); c != 0 {
			return c
		}
		return strings.Compare(a.File, b.File)
	})
	return out
}

// buildSite makes the site model of the visible pages, with the hidden
// sections' _index files.
func (s *Snapshot) buildSite(visible, hidden []*Post) *siteModel {
	bundles := map[string][]string{}
	for _, p := range visible {
		if p.Bundle != "" {
			bundles[p.Bundle] = p.Resources
		}
	}
	return buildSite(siteInput{cfg: s.config, posts: visible, hidden: hidden, files: s.files, bundles: bundles, static: s.static, assets: s.assets, own: s.opts.Own})
}

// isPost reports whether a visible page is a post: a regular page of a
// main section, in the default language.
func (s *Snapshot) isPost(p *Post) bool {
	if p.Kind != KindPage || p.Lang != s.config.DefaultLanguage {
		return false
	}
	top, _, _ := strings.Cut(p.Dir, "/")
	return top != "" && slices.Contains(s.MainSections(p.Lang), top)
}

// noteSchedule keeps the earliest future instant at which p's visibility
// changes.
func (s *Snapshot) noteSchedule(p *Post, now time.Time) {
	if s.opts.Drafts || p.Draft && !s.config.BuildDrafts {
		return
	}
	var room [2]time.Time
	changes := room[:0] // under buildFuture or buildExpired, shown either side
	if !s.config.BuildFuture {
		changes = append(changes, p.Date)
	}
	if !s.config.BuildExpired {
		changes = append(changes, p.Expiry.Add(time.Nanosecond))
	}
	for _, t := range changes {
		if t.After(now) && (s.next.IsZero() || t.Before(s.next)) {
			s.next = t
		}
	}
}

// Compare orders posts as the contract does: publish date descending,
// then slug ascending.
func Compare(a, b *Post) int {
	if c := b.Date.Compare(a.Date); c != 0 {
		return c
	}
	return strings.Compare(a.Slug, b.Slug)
}

// routeSource names what answers at a route, for a problem: its content
// file, else its file.
func (s *Snapshot) routeSource(r Route) string {
	switch {
	case r.Path == notFoundPath && r.owner == nil && r.File == "":
		return "the site's 404 page"
	case r.owner != nil && r.owner.Post != nil && r.Kind == RoutePage:
		return s.display(r.owner.Post.File)
	case r.File != "":
		return s.display(r.File)
	case r.owner != nil && r.owner.Post != nil:
		return "a page of " + s.display(r.owner.Post.File)
	}
	return "a page of the site"
}

func (s *Snapshot) display(file string) string {
	return filepath.Join(s.opts.Root, filepath.FromSlash(file))
}
