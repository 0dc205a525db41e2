package render

import (
	"errors"
	"fmt"
	"regexp"
)

// hugoOnly are Hugo 0.165's template functions (namespaces and aliases,
// tpl/*/init.go) for what the CONTRACT leaves to Hugo, with what they
// are, in an author's words. A template calling one does not parse in
// folio; where content uses it, that is a warning, not an error: Hugo
// builds and publishes the page, so folio does too, without what the
// function would have made (a shortcode keeps its inner text, a render
// hook's element is rendered by folio).
var hugoOnly = map[string]string{
	"resources": "Hugo Pipes", "css": "Hugo Pipes", "js": "Hugo Pipes", "babel": "Hugo Pipes",
	"postCSS": "Hugo Pipes", "toCSS": "Hugo Pipes", "fingerprint": "Hugo Pipes", "minify": "Hugo Pipes",
	"images": "image processing", "imageConfig": "image processing",
	"readFile": "reading the project's files", "readDir": "reading the project's files",
	"fileExists": "reading the project's files", "os": "reading the project's files",
	"getenv": "reading the environment",
}

// undefinedFunc is text/template's parse error for a function it does
// not have.
var undefinedFunc = regexp.MustCompile(`function "([^"]+)" not defined`)

// A hugoOnlyError is a template that did not parse because it calls one
// of hugoOnly: at where (its file and line), fn, which is what.
type hugoOnlyError struct {
	fn, what, where string
	err             error // the parse error, as a problem names it
}

func (e *hugoOnlyError) Error() string { return e.err.Error() }
func (e *hugoOnlyError) Unwrap() error { return e.err }

// said is what a warning says of it.
func (e *hugoOnlyError) said() string {
	return fmt.Sprintf("%s calls %s (%s), which is Hugo's, not folio's", e.where, e.fn, e.what)
}

// parseFailure is why the template at file did not parse (err, its
// parse error; pr, the problem naming it): a hugoOnlyError when it
// calls one of hugoOnly.
func parseFailure(pr problemText, err error) error {
	failure := errors.New(pr.text)
	if m := undefinedFunc.FindStringSubmatch(err.Error()); m != nil && hugoOnly[m[1]] != "" {
		return &hugoOnlyError{fn: m[1], what: hugoOnly[m[1]], where: pr.where, err: failure}
	}
	return failure
}

// problemText is a template problem as an error names it: its text and
// its file:line.
type problemText struct{ text, where string }

// hugoOnlyOf is err's hugoOnlyError, nil when it has none.
func hugoOnlyOf(err error) *hugoOnlyError {
	var h *hugoOnlyError
	if errors.As(err, &h) {
		return h
	}
	return nil
}
