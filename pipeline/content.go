package pipeline

import (
	"cmp"
	"path"
	"slices"
	"strings"
)

// This file says what a file of a content mount is to Hugo: a regular
// page, a section's or the home page's _index, a leaf bundle's index, or
// a resource; and in which language.

// contentExts are the file extensions of the content folio publishes as
// pages: Markdown, as Hugo's default handler reads it, and Emacs Org mode,
// which Hugo renders with go-org (render's org.go does too).
var contentExts = []string{"md", "markdown", "mdown", "org"}

// hugoContentExts are the file name extensions of Hugo 0.165's content
// formats (its default content types: Markdown, HTML, AsciiDoc, Pandoc,
// reStructuredText, Emacs Org mode).
var hugoContentExts = []string{"md", "mdown", "markdown", "html", "htm", "adoc", "asciidoc", "ad", "pandoc", "pdc", "rst", "org"}

// otherFormat names the content format of a file Hugo reads as a page
// and folio cannot render (AsciiDoc, HTML…), "" for any other
// (Markdown, Org, or a file Hugo publishes as it is).
func otherFormat(name string) string {
	if ignored(name) {
		return ""
	}
	switch strings.ToLower(strings.TrimPrefix(path.Ext(name), ".")) {
	case "html", "htm":
		return "HTML"
	case "adoc", "asciidoc", "ad":
		return "AsciiDoc"
	case "pandoc", "pdc":
		return "Pandoc"
	case "rst":
		return "reStructuredText"
	}
	return ""
}

// otherFormatWarning says of a content file in another format than
// Markdown (otherFormat) what Hugo does with it and that folio leaves
// it out: never published, neither as a page nor as a file.
func otherFormatWarning(format string) string {
	hugo := "Hugo 0.165 publishes it as a page"
	switch format {
	case "HTML":
		hugo = "Hugo 0.165 refuses it unless security.allowContent allows text/html, then publishes it as a page"
	case "AsciiDoc":
		hugo += " when asciidoctor is installed"
	case "Pandoc":
		hugo += " when pandoc is installed"
	case "reStructuredText":
		hugo += " when rst2html is installed"
	}
	return format + " content: " + hugo + "; folio renders Markdown and Org only and leaves it out (neither a page nor a file)"
}

// isPageResource reports whether a bundle's file named name is content to
// Hugo (by its extension, in any case): a page resource, which Hugo never
// publishes, rather than a file published beside the page.
func isPageResource(name string) bool {
	ext := strings.TrimPrefix(path.Ext(name), ".")
	return slices.Contains(hugoContentExts, strings.ToLower(ext))
}

// isContentFile reports whether a file named name is content (a page):
// Markdown or Org no editor left behind.
func isContentFile(name string) bool {
	if ignored(name) {
		return false
	}
	ext := strings.TrimPrefix(path.Ext(name), ".")
	return slices.Contains(contentExts, strings.ToLower(ext))
}

// contentName is a content file's name taken apart: "post.fr.md" is
// base "post", language "fr"; "_index.md" base "_index".
type contentName struct {
	base string // without extension and language
	lang string // "" when the name carries none
	// disabled: the language the name carries is one disableLanguages
	// turns off (lang is then "").
	disabled bool
}

// parseContentName splits a content file name; a language suffix counts
// only when it is one of the site's languages.
func (c *Config) parseContentName(name string) contentName {
	base := strings.TrimSuffix(name, path.Ext(name))
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		lang := strings.ToLower(base[i+1:])
		if c.Lang(lang) != nil {
			return contentName{base: base[:i], lang: lang}
		}
		if slices.Contains(c.DisabledLanguages, lang) {
			return contentName{base: base[:i], disabled: true}
		}
	}
	return contentName{base: base}
}

// fileLang is the language of a content folder's file that is no page
// (a bundle's resource, a section's file) as Hugo 0.165 assigns it: the
// language its name carries (pic.fr.png is French), else its mount's,
// else the default language. ok is false for a disabled language's file,
// which Hugo leaves out. Hugo publishes such a file once, beside its own
// language's page, and not at all when that language has no such page.
func (c *Config) fileLang(cm contentMount, name string) (lang string, ok bool) {
	cn := c.parseContentName(path.Base(name))
	if cn.disabled {
		return "", false
	}
	return cmp.Or(cn.lang, cm.mount.Lang, c.DefaultLanguage), true
}

// isIndex reports whether a content file is a leaf bundle's index.
// A disabled language's index.de.md is none: its folder is no bundle.
func (n contentName) isIndex() bool { return n.base == "index" && !n.disabled }

// isBranch reports whether a content file is a section's (or the home
// page's) _index.
func (n contentName) isBranch() bool { return n.base == "_index" && !n.disabled }

// contentMount is where a unit key lies: the mount and the path inside
// it.
type contentMount struct {
	mount Mount
	rel   string // slash-separated, "" for the mount's root
}

// contentMounts are the content mounts, most specific first, so that a
// file under content/fr is content/fr's and not content's.
func (c *Config) contentMounts() []Mount {
	var out []Mount
	for _, m := range c.Mounts {
		if m.Target == "content" || strings.HasPrefix(m.Target, "content/") {
			out = append(out, m)
		}
	}
	slices.SortStableFunc(out, func(a, b Mount) int { return len(b.Source) - len(a.Source) })
	return out
}

// mountOf finds the content mount of a path of the site's FS.
//
// A path that ignoreFiles or its mount's excludeFiles leave out is in
// none (contentfilter.go): it is never content, nor a file beside it.
//
// Whether p is a folder matters to includeFiles (a folder on the way to
// an inclusion is kept): mountOfDir and inContentAs say it; here a name
// without an extension is taken for a folder, for paths of either kind
// (a change dev was told of, a unit's key).
func (c *Config) mountOf(p string) (contentMount, bool) {
	return c.mountOfAs(p, !strings.Contains(path.Base(p), "."))
}

// mountOfDir is mountOf of a folder, whatever its name ("v1.2").
func (c *Config) mountOfDir(p string) (contentMount, bool) { return c.mountOfAs(p, true) }

// mountOfAs is mountOf of a folder (dir) or a file.
func (c *Config) mountOfAs(p string, dir bool) (contentMount, bool) {
	cm, ok := c.mountOfPath(p)
	if ok && c.leftOut(cm.mount, p, dir) {
		return contentMount{}, false
	}
	return cm, ok
}

// mountOfPath is mountOf, whatever the filters leave out.
func (c *Config) mountOfPath(p string) (contentMount, bool) {
	for _, m := range c.contentMounts() {
		src := m.Source
		if src == "." {
			if p == "." {
				p = ""
			}
			return contentMount{mount: m, rel: targetRel(m, p)}, true
		}
		if p == src {
			return contentMount{mount: m, rel: targetRel(m, "")}, true
		}
		if rest, ok := strings.CutPrefix(p, src+"/"); ok {
			return contentMount{mount: m, rel: targetRel(m, rest)}, true
		}
	}
	return contentMount{}, false
}

// targetRel puts a path inside a mount where the mount's target says:
// a mount at content/blog holds the blog section.
func targetRel(m Mount, rel string) string {
	sub := strings.TrimPrefix(strings.TrimPrefix(m.Target, "content"), "/")
	if sub == "" {
		return rel
	}
	if rel == "" {
		return sub
	}
	return sub + "/" + rel
}

// ContentPath is a content file's path from the content root, whatever
// mount it came from, as Hugo's .File.Path gives it: "posts/a.md" for
// the site's content/posts/a.md. A path in no content mount is itself.
func (c *Config) ContentPath(file string) string {
	if cm, ok := c.mountOf(file); ok {
		return cm.rel
	}
	return file
}

// inContent reports whether a path of the site's FS is in a content
// mount.
func (c *Config) inContent(p string) bool {
	_, ok := c.mountOf(p)
	return ok
}

// inContentAs is inContent of a folder (dir) or a file.
func (c *Config) inContentAs(p string, dir bool) bool {
	_, ok := c.mountOfAs(p, dir)
	return ok
}

// indexNames are the names a leaf bundle's index may have: index with
// each content extension, with or without a language.
func (c *Config) indexNames() []string {
	var out []string
	for _, ext := range contentExts {
		out = append(out, "index."+ext)
		for _, l := range c.Languages {
			out = append(out, "index."+l.Code+"."+ext)
		}
	}
	return out
}
