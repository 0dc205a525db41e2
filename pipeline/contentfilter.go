package pipeline

import (
	"fmt"
	"path"
	"path/filepath"
	"regexp"
	"strings"
)

// This file leaves out the content files the site's author excluded, as
// Hugo 0.165 does: the site's ignoreFiles, regular expressions matched
// against a file's or folder's absolute path, and a content mount's
// excludeFiles, globs matched against its path below the mount's source
// (with a leading slash, in lower case). A folder that matches is left
// out with all it holds.

// mountFilter is a mount's excludeFiles, compiled.
type mountFilter struct {
	Patterns []string // as written, lower-cased
	exclude  []*regexp.Regexp
}

// excludes reports whether the path rel below the mount's source ("a/b.md")
// matches one of the patterns.
func (f *mountFilter) excludes(rel string) bool {
	if f == nil {
		return false
	}
	p := "/" + strings.ToLower(rel)
	for _, re := range f.exclude {
		if re.MatchString(p) {
			return true
		}
	}
	return false
}

// newMountFilter compiles a mount's excludeFiles (a string or a list of
// them); nil when there is none.
func newMountFilter(v any) (*mountFilter, error) {
	var patterns []string
	switch v := v.(type) {
	case nil:
		return nil, nil
	case string:
		patterns = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return nil, fmt.Errorf("excludeFiles: %v is not a string", e)
			}
			patterns = append(patterns, s)
		}
	case []string:
		patterns = v
	default:
		return nil, fmt.Errorf("excludeFiles: want a glob or a list of globs, not %T", v)
	}
	if len(patterns) == 0 {
		return nil, nil
	}
	f := &mountFilter{}
	for _, p := range patterns {
		p = strings.ToLower(filepath.ToSlash(p))
		if !strings.HasPrefix(p, "/") {
			p = "/" + p
		}
		re, err := globRegexp(p)
		if err != nil {
			return nil, fmt.Errorf("excludeFiles: glob %q: %v", p[1:], err)
		}
		f.Patterns = append(f.Patterns, p)
		f.exclude = append(f.exclude, re)
	}
	return f, nil
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
		if m.Exclude != nil {
			return true
		}
	}
	return false
}

// leftOut reports whether the path p of the site's FS, below the source
// of the content mount m, is left out by ignoreFiles or m's
// excludeFiles: it or a folder above it, below the mount's source.
func (c *Config) leftOut(m Mount, p string) bool {
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
		if m.Exclude.excludes(r) {
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
