package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
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

// A filterEntry is one glob: a regular expression, or (re nil) a test of
// a path's start and end (globMatcher). Plain data, so that two configs
// compare (ReadsLike).
type filterEntry struct {
	re         *regexp.Regexp
	start, end string
	kind       byte // '+' inclusion, '-' exclusion, '/' a folder an inclusion is below
}

func (e filterEntry) match(p string) bool {
	if e.re != nil {
		return e.re.MatchString(p)
	}
	return strings.HasPrefix(p, e.start) && strings.HasSuffix(p, e.end)
}

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

// globMatcher is a glob's test of a path. A glob that is text, **, text
// and nothing else is a test of the path's start and end, which may
// overlap, as Hugo's glob library has it: /**/r.md matches /r.md, where
// /**/r-* does not match /r-1.md.
func globMatcher(glob string) (filterEntry, error) {
	if before, after, ok := strings.Cut(glob, "**"); ok && !strings.ContainsAny(before+after, `*?[]{}\`) {
		return filterEntry{start: before, end: after}, nil
	}
	re, err := globRegexp(glob)
	return filterEntry{re: re}, err
}

// globRegexp translates a glob as Hugo matches file names: * is any run
// of characters but the slash, ** any run, ? one character but the
// slash, [a-z] and [!a-z] a class, {a,b} either, \ escapes.
func globRegexp(glob string) (*regexp.Regexp, error) {
	var b strings.Builder
	b.WriteString(`\A`)
	depth := 0
	for i := 0; i < len(glob); i++ {
		switch c := glob[i]; c {
		case '*':
			if i+1 < len(glob) && glob[i+1] == '*' {
				b.WriteString(`.*`)
				i++
			} else {
				b.WriteString(`[^/]*`)
			}
		case '?':
			b.WriteString(`[^/]`)
		case '[':
			end := strings.IndexByte(glob[i+1:], ']')
			if end < 0 {
				return nil, fmt.Errorf("unclosed [")
			}
			class := glob[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			if class == "" || class == "^" {
				return nil, fmt.Errorf("empty []")
			}
			b.WriteString("[" + strings.ReplaceAll(class, `[`, `\[`) + "]")
			i += end + 1
		case '{':
			depth++
			b.WriteString(`(?:`)
		case '}':
			if depth == 0 {
				return nil, fmt.Errorf("} without {")
			}
			depth--
			b.WriteString(`)`)
		case ',':
			if depth > 0 {
				b.WriteString(`|`)
			} else {
				b.WriteString(`,`)
			}
		case '\\':
			if i+1 == len(glob) {
				return nil, fmt.Errorf("trailing \\")
			}
			i++
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(glob[i : i+1]))
		}
	}
	if depth > 0 {
		return nil, fmt.Errorf("unclosed {")
	}
	b.WriteString(`\z`)
	return regexp.Compile(b.String())
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
