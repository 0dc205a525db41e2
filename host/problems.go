package host

import (
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"folio/pipeline"
)

// The dev overlay lists problems as path, line and message. Errors from
// the config file and the theme come as text; these functions find the
// file and line in it when it names them.

// configProblems turns an error from reading the config file into the
// problem the overlay shows: "config.toml:4: message" gives the line.
func configProblems(err error, file string) []pipeline.Problem {
	msg := err.Error()
	p := pipeline.Problem{Path: file, Line: 1, Message: msg}
	if file == "" {
		p.Path = "config"
	}
	if rest, ok := strings.CutPrefix(msg, file+":"); ok && file != "" {
		p.Message = strings.TrimSpace(rest)
		if n, after, ok := leadingLine(rest); ok {
			p.Line, p.Message = n, after
		}
	} else if m := placed.FindStringSubmatch(msg); m != nil {
		// Another of the site's config files (config/_default/params.toml).
		n, _ := strconv.Atoi(m[2])
		p.Path, p.Line, p.Message = m[1], n, m[3]
	}
	return []pipeline.Problem{p}
}

// placed matches "path:line: message".
var placed = regexp.MustCompile(`^([^:\n]+):(\d+): (.*)$`)

// leadingLine parses "12: message".
func leadingLine(s string) (int, string, bool) {
	num, rest, ok := strings.Cut(s, ":")
	n, err := strconv.Atoi(num)
	if !ok || err != nil || n < 1 {
		return 0, "", false
	}
	return n, strings.TrimSpace(rest), true
}

// templateErr matches html/template's "template: article.html:12: …" and
// "template: article.html:12:5: …".
var templateErr = regexp.MustCompile(`template: ([^:\s]+):(\d+):(?:\d+:)? ?(.*)$`)

// siteProblems turns an error from loading the theme in dir ("" for the
// embedded one) into the problem the overlay shows, at the template and
// line it names, else at the file or folder it names.
func siteProblems(err error, dir string) []pipeline.Problem {
	msg := err.Error()
	base := dir
	if base == "" {
		base = "site"
	}
	p := pipeline.Problem{Path: base, Message: msg} // the folder: no line
	if m := templateErr.FindStringSubmatch(msg); m != nil {
		p.Path = filepath.Join(base, "templates", m[1])
		p.Line, _ = strconv.Atoi(m[2])
		p.Message = m[3]
	} else if rest, ok := strings.CutPrefix(msg, "site: "); ok {
		// "site: templates/home.html: no {{define "main"}}"
		if file, why, ok := strings.Cut(rest, ": "); ok && strings.HasPrefix(file, "templates/") {
			p.Path, p.Line, p.Message = filepath.Join(base, filepath.FromSlash(file)), 1, why
		}
	}
	return []pipeline.Problem{p}
}
