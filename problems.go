package main

import (
	"errors"
	"fmt"
	"io"
	"net/url"
	"strings"

	"folio/export"
	"folio/pipeline"
)

// writeProblems prints problems one a line, as check and build list them:
// every error, and each warning's message once, at its first place, with
// how many more places say the same. A site whose theme is not checked
// out says "shortcode "alert": no template for it…" at each of 118 uses,
// which would bury everything else. With each, every warning is printed;
// hint says how the author gets that list.
func writeProblems(w io.Writer, problems []pipeline.Problem, each bool, hint string) {
	var more map[string][]pipeline.Problem // a repeated warning's later places, by message
	if !each {
		more = repeatedWarnings(problems)
	}
	for _, p := range problems {
		rest, repeated := more[p.Message]
		switch {
		case p.Severity != pipeline.Warning || !repeated:
			fmt.Fprintln(w, p)
		case rest != nil:
			fmt.Fprintf(w, "%s (and %d more in %s: %s)\n", p, len(rest), count(filesOf(rest), "file", "files"), hint)
			more[p.Message] = nil // printed: the later places are not
		}
	}
}

// repeatedWarnings maps the message of each warning said more than once
// to its places after the first.
func repeatedWarnings(problems []pipeline.Problem) map[string][]pipeline.Problem {
	seen := map[string]int{}
	for _, p := range problems {
		if p.Severity == pipeline.Warning {
			seen[p.Message]++
		}
	}
	out := map[string][]pipeline.Problem{}
	first := map[string]bool{}
	for _, p := range problems {
		if p.Severity != pipeline.Warning || seen[p.Message] < 2 {
			continue
		}
		if !first[p.Message] {
			first[p.Message] = true
			continue
		}
		out[p.Message] = append(out[p.Message], p)
	}
	return out
}

// filesOf counts the files problems name.
func filesOf(problems []pipeline.Problem) int {
	files := map[string]bool{}
	for _, p := range problems {
		files[p.Path] = true
	}
	return len(files)
}

// clashProblem is the problem for two routes folio build's export cannot
// hold together (an export.NameClash in err): build refuses the site, so
// check reports it too, both at the content file that makes the second
// route (else the first) and the line that sets its URL: the file to
// change. false when err is no such clash.
func clashProblem(snap *pipeline.Snapshot, err error) (pipeline.Problem, bool) {
	var c *export.NameClash
	if !errors.As(err, &c) {
		return pipeline.Problem{}, false
	}
	p := pipeline.Problem{Path: snap.DisplayPath("."), Message: strings.TrimPrefix(c.Error(), "export: ")}
	for _, route := range []string{c.Paths[1], c.Paths[0]} {
		if file, line, ok := sourceOf(snap, route); ok {
			p.Path, p.Line = file, line
			break
		}
	}
	return p, true
}

// sourceOf is the file of the site that makes the exported path route
// (escaped): a page's content file and the line of its URL (a twin's
// page's), or a file's own path (line 1).
func sourceOf(snap *pipeline.Snapshot, route string) (file string, line int, ok bool) {
	u, err := url.PathUnescape(route)
	if err != nil {
		return "", 0, false
	}
	cands := []string{u}
	if page, ok := strings.CutSuffix(u, ".md"); ok {
		cands = append(cands, strings.TrimSuffix(page, "/index")+"/") // a twin's page
	}
	for _, c := range cands {
		r, ok := snap.Route(c)
		switch {
		case !ok:
		case r.Page != nil && r.Page.Post != nil:
			return snap.DisplayPath(r.Page.Post.File), r.Page.Post.URLLine(), true
		case r.Kind == pipeline.RouteFile:
			return snap.DisplayPath(r.File), 1, true
		}
	}
	return "", 0, false
}
