package pipeline

import (
	"net/url"
	"path"
	"strings"

	"github.com/gohugoio/hugo/common/paths"
	"github.com/gohugoio/hugo/common/text"
)

// This file is Hugo 0.165's rule for where a page is written
// (resources/page/page_paths.go: CreateTargetPaths), reimplemented: the
// folders of a page's path, its base name, ugly URLs, front-matter url,
// expanded permalinks, the pager's addends, the language prefix, and
// Hugo's sanitising of every path element.

// pathDesc describes one output of one page.
type pathDesc struct {
	kind string
	// dir is the folder of a regular page's file inside the content
	// (its container: "posts/2024"); base its base name (the slug, else
	// the file or bundle folder name).
	dir, base string
	// section is a list page's own path ("posts/go", "tags/go"); "" for
	// the home page.
	section string
	// url is the front matter url; permalink the expanded permalink
	// pattern; addends the pager's "page/2".
	url, permalink, addends string
	ugly                    bool
	prefix                  string // language prefix, "" for none
	feed                    bool   // the RSS output instead of HTML
}

// targetFile is the file Hugo writes for d, slash-separated from the
// publish root ("posts/hello/index.html", "posts/hello.html").
func (c *Config) targetFile(d pathDesc) string {
	suffix, baseName := ".html", "index"
	ugly := d.ugly && !d.feed
	if d.feed {
		suffix, baseName = ".xml", c.RSSBaseName
	}
	var els []string
	add := func(e ...string) {
		for _, s := range e {
			if s != "" && s != "/" {
				els = append(els, s)
			}
		}
	}
	concatLast := func(s string) {
		if len(els) == 0 {
			add(s)
			return
		}
		els[len(els)-1] = strings.TrimSuffix(els[len(els)-1], "/") + s
	}
	branch := d.kind != KindPage
	indexIsUgly := ugly && (d.kind == KindHome || d.kind == KindSection || d.kind == KindTaxonomy)
	needsBase := true
	if branch && d.url == "" && d.section != "" {
		add(cmpOr(d.permalink, d.section))
		needsBase = false
	}
	switch {
	case d.kind != KindHome && d.url != "":
		add(paths.FieldsSlash(d.url)...)
		add(d.addends)
		if strings.HasSuffix(d.url, "/") || !strings.Contains(d.url, ".") {
			add(baseName + suffix)
		}
	case !branch:
		if d.permalink != "" {
			add(d.permalink)
		} else {
			add(d.dir, d.base)
		}
		add(d.addends)
		if ugly {
			concatLast(suffix)
		} else {
			add(baseName + suffix)
		}
	default:
		add(d.addends)
		if (needsBase && d.addends == "") || !ugly || indexIsUgly {
			add(baseName + suffix)
		} else {
			concatLast(suffix)
		}
	}
	if d.url == "" {
		for i, e := range els {
			els[i] = c.sanitizePath(e)
		}
	}
	file := strings.Trim(path.Join(els...), "/")
	if d.prefix != "" && (d.url == "" || !strings.HasPrefix(d.url, "/")) {
		file = d.prefix + "/" + file
	}
	return file
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// routeAndFile is routeOf(file) and file, both parts of one string: a
// page keeps both for the life of its snapshot, and each string is an
// object the collector marks in every cycle.
func routeAndFile(file string) (route, same string) {
	if file == "index.html" {
		return "/", file
	}
	full := "/" + file
	if strings.HasSuffix(file, "/index.html") {
		return full[:len(full)-len("index.html")], full[1:]
	}
	return full, full[1:]
}

// routeOf is the URL path a written file answers at: "/posts/hello/" for
// posts/hello/index.html, the file itself otherwise.
func routeOf(file string) string {
	if file == "index.html" {
		return "/"
	}
	if dir, ok := strings.CutSuffix(file, "/index.html"); ok {
		return "/" + dir + "/"
	}
	return "/" + file
}

// resourceBase is the folder a page's resources are written to, from
// its HTML file: the file's folder for an index file, the file without
// its extension otherwise (an ugly page's resources go below its name).
func resourceBase(file string) string {
	if file == "index.html" {
		return ""
	}
	if dir, ok := strings.CutSuffix(file, "/index.html"); ok {
		return dir
	}
	return strings.TrimSuffix(file, path.Ext(file))
}

// sanitizePath is Hugo's MakePathSanitized: its path sanitising
// (spaces to hyphens, punctuation dropped), accents removed when
// removePathAccents is set, lower-cased unless disablePathToLower.
func (c *Config) sanitizePath(s string) string {
	s = paths.Sanitize(s)
	if c.RemovePathAccents {
		s = text.RemoveAccentsString(s)
	}
	if !c.DisablePathToLower {
		s = strings.ToLower(s)
	}
	return s
}

// urlize is Hugo's urlize of a path element (a title in a permalink, a
// term): sanitised as a path is.
func (c *Config) urlize(s string) string {
	return c.sanitizePath(s)
}

// cleanPermalink is an expanded pattern as Hugo uses it: unescaped and
// cleaned ("/2024/01/hello/" becomes "/2024/01/hello").
func cleanPermalink(p string) string {
	if u, err := url.QueryUnescape(p); err == nil {
		p = u
	}
	return path.Clean(p)
}
