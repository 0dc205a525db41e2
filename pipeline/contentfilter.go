package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/gobwas/glob"
	"github.com/gohugoio/hugo/hugofs/hglob"
)

// This file leaves out the content files the site's author excluded, as
// Hugo 0.165 does: the site's ignoreFiles, regular expressions matched
// against a file's or folder's absolute path, and a content mount's
// files, includeFiles and excludeFiles, globs matched against its path
// below the mount's source (with a leading slash, in any case). A folder
// left out is left out with all it holds.

// mountFilter is a content mount's files, includeFiles and excludeFiles,
// compiled: globs in order, each an inclusion or (written "! glob" in
// files, or in excludeFiles) an exclusion. A path is decided by the first
// that matches; with inclusions, a path none matches is left out, and a
// folder is kept when it is on the way to an inclusion.
type mountFilter struct {
	Patterns []string // as compiled, in order: "+glob", "-glob", "/dir" (a folder on the way)
	entries  []filterEntry
}

// A filterEntry is one glob, compiled by Hugo's glob library (hglob,
// gobwas/glob), so that what Hugo 0.165 accepts and matches folio does:
// an unclosed "{a,b" is its alternatives, a lone "}" a literal. hglob
// caches a glob by its text, so two configs with the same globs compare
// equal (ReadsLike).
type filterEntry struct {
	g    glob.Glob
	kind byte // '+' inclusion, '-' exclusion, '/' a folder an inclusion is below
}

func (e filterEntry) match(p string) bool { return e.g.Match(p) }

// keeps reports whether the path rel below the mount's source ("a/b.md")
// is kept; dir says it is a folder.
func (f *mountFilter) keeps(rel string, dir bool) bool {
	if f == nil {
		return true
	}
	p := "/" + strings.ToLower(rel)
	include := false
	for _, e := range f.entries {
		switch e.kind {
		case '-':
			if e.match(p) {
				return false
			}
		case '+':
			if e.match(p) {
				return true
			}
			include = true
		case '/':
			if dir && e.match(p) {
				return true
			}
		}
	}
	return !include
}

// excludes reports whether a file at rel is left out.
func (f *mountFilter) excludes(rel string) bool { return !f.keeps(rel, false) }

// globList reads a key that is a glob or a list of them.
func globList(key string, v any) ([]string, error) {
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		return []string{v}, nil
	case []string:
		return v, nil
	case []any:
		var out []string
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%s: %v is not a string", key, e)
			}
			out = append(out, s)
		}
		return out, nil
	}
	return nil, fmt.Errorf("%s: want a glob or a list of globs, not %T", key, v)
}

// newMountFilter compiles a mount's files, includeFiles and excludeFiles;
// nil when it has none. files come first, in their own order, then
// includeFiles, then excludeFiles, as Hugo 0.165 orders them (modules'
// Mount.FilesToFilter): files: ["**"] keeps what excludeFiles names, and
// files: ["! x"] leaves out what includeFiles names.
func newMountFilter(files, include, exclude any) (*mountFilter, error) {
	var list []string
	for _, k := range []struct {
		key string
		v   any
		neg bool
	}{{"files", files, false}, {"includeFiles", include, false}, {"excludeFiles", exclude, true}} {
		globs, err := globList(k.key, k.v)
		if err != nil {
			return nil, err
		}
		for _, g := range globs {
			if k.neg && !strings.HasPrefix(g, "! ") {
				g = "! " + g
			}
			list = append(list, k.key+"\x00"+g)
		}
	}
	if len(list) == 0 {
		return nil, nil
	}
	f := &mountFilter{}
	add := func(kind byte, glob string) error {
		e, err := globMatcher(glob)
		if err != nil {
			return err
		}
		e.kind = kind
		f.Patterns = append(f.Patterns, string(kind)+glob)
		f.entries = append(f.entries, e)
		return nil
	}
	for _, item := range list {
		key, g, _ := strings.Cut(item, "\x00")
		kind := byte('+')
		if rest, ok := strings.CutPrefix(g, "! "); ok {
			kind, g = '-', rest
		}
		g = strings.ToLower(filepath.ToSlash(g))
		if !strings.HasPrefix(g, "/") {
			g = "/" + g
		}
		if err := add(kind, g); err != nil {
			return nil, fmt.Errorf("%s: glob %q: %v", key, g[1:], err)
		}
		if kind == '+' {
			// The folders on the way to an inclusion are walked.
			parts := strings.Split(path.Dir(g), "/")
			for i := 1; i < len(parts); i++ {
				if err := add('/', strings.Join(parts[:i+1], "/")); err != nil {
					return nil, fmt.Errorf("%s: glob %q: %v", key, g[1:], err)
				}
			}
		}
	}
	return f, nil
}

// globMatcher is a glob's test of a path, as Hugo's: ** is any run of
// characters, * and ? stop at a slash, and /**/r.md matches /r.md where
// /**/r-* does not match /r-1.md.
func globMatcher(glob string) (filterEntry, error) {
	g, err := hglob.GetGlob(glob)
	return filterEntry{g: g}, err
}

// ignoreFilesOf compiles the site's ignoreFiles (a regular expression or
// a list of them).
func ignoreFilesOf(v any) ([]*regexp.Regexp, error) {
	var list []string
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		list = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("%v is not a string", e)
			}
			list = append(list, s)
		}
	default:
		return nil, fmt.Errorf("want a regular expression or a list of them, not %T", v)
	}
	var out []*regexp.Regexp
	for _, s := range list {
		re, err := regexp.Compile(s)
		if err != nil {
			return nil, fmt.Errorf("pattern %q: %v", s, err)
		}
		out = append(out, re)
	}
	return out, nil
}

// filtersContent reports whether any content file may be left out by
// ignoreFiles or excludeFiles: when none may, nothing is checked.
func (c *Config) filtersContent() bool {
	if len(c.IgnoreFiles) > 0 {
		return true
	}
	for _, m := range c.Mounts {
		if m.Exclude != nil || c.disabledMount(m) {
			return true
		}
	}
	return false
}

// disabledMount reports whether m is a mount of a disabled language's
// (lang, or languages' contentDir): Hugo reads nothing of it, not even a
// file whose name says another language.
func (c *Config) disabledMount(m Mount) bool {
	return m.Lang != "" && slices.Contains(c.DisabledLanguages, m.Lang)
}

// leftOut reports whether the path p of the site's FS, below the source
// of the content mount m, is left out by ignoreFiles or m's
// excludeFiles: it or a folder above it, below the mount's source; dir
// says p is a folder. A disabled language's mount leaves out
// everything, its root included.
func (c *Config) leftOut(m Mount, p string, dir bool) bool {
	if c.disabledMount(m) {
		return true
	}
	if len(c.IgnoreFiles) == 0 && m.Exclude == nil {
		return false
	}
	rel := p
	if m.Source != "." {
		var ok bool
		if rel, ok = strings.CutPrefix(p, m.Source+"/"); !ok {
			return false // the mount's root itself
		}
	}
	abs := ""
	if len(c.IgnoreFiles) > 0 {
		abs = c.ignoreRoot
	}
	for r := rel; r != "." && r != "" && r != "/"; r = path.Dir(r) {
		if !m.Exclude.keeps(r, r != rel || dir) {
			return true
		}
		if abs != "" {
			full := path.Join(abs, m.Source, r)
			for _, re := range c.IgnoreFiles {
				if re.MatchString(full) {
					return true
				}
			}
		}
	}
	return false
}
