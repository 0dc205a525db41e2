package render

import (
	"fmt"
	"html/template"
	"reflect"
	"strconv"
	"strings"

	"folio/pipeline"
	"folio/render/funcs"
)

// shortcode is the "." of a shortcode template, Hugo's ShortcodeWithPage:
// the call's parameters, its inner content, its page and its parent. The
// built-in shortcodes get the same value, so .Get means one thing
// everywhere.
type shortcode struct {
	// Name is the shortcode's name as called ("notice", "dir/name").
	Name string
	// Params are the arguments, typed as Hugo types them (a quoted value
	// is a string; true, false and numbers written bare are bool, int
	// and float64): []any when positional, map[string]any when named,
	// nil when there are none.
	Params any
	// IsNamedParams reports named arguments.
	IsNamedParams bool
	// Ordinal is the call's position among its parent's calls (the
	// page's, for a call at the top level), from 0.
	Ordinal int
	// Parent is the enclosing call, nil at the top level.
	Parent *shortcode
	// Page is the page the call is in.
	Page *page
	// Inner is the content between the opening and the closing tag,
	// nested calls rendered; empty without a closing tag.
	Inner template.HTML

	node       *pipeline.Node // the call; nil for a fragment's
	childTwins []string       // the twins of the nested calls, in order
	indent     string         // the white space before the opening tag on its line
	line       int            // the line of the opening tag
	markup     bool           // {{% %}}
	store      *funcs.Scratch
}

// Get returns the argument named key (a string) or at position key (an
// int), as Hugo's .Get does: "" for a missing one, nil when the call's
// arguments are of the other kind.
func (s *shortcode) Get(key any) any {
	switch p := s.Params.(type) {
	case []any:
		i, ok := toIndex(key)
		if !ok {
			return nil
		}
		if i < 0 || i >= len(p) {
			return ""
		}
		return p[i]
	case map[string]any:
		k, ok := key.(string)
		if !ok {
			return nil
		}
		v, found := p[k]
		if !found {
			return ""
		}
		return v
	}
	return nil
}

func toIndex(key any) (int, bool) {
	v := reflect.ValueOf(key)
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return int(v.Int()), true
	}
	return 0, false
}

// str returns the argument as text, "" when missing.
func (s *shortcode) str(name string, pos int) string {
	v := s.Get(name)
	if (v == nil || v == "") && pos >= 0 {
		v = s.Get(pos)
	}
	if v == nil {
		return ""
	}
	return fmt.Sprint(v)
}

// InnerDeindent is Inner without the indentation of the opening tag on
// each line, as Hugo's .InnerDeindent.
func (s *shortcode) InnerDeindent() template.HTML {
	if s.indent == "" {
		return s.Inner
	}
	var b strings.Builder
	for _, line := range strings.SplitAfter(string(s.Inner), "\n") {
		b.WriteString(strings.TrimPrefix(line, s.indent))
	}
	return template.HTML(b.String())
}

// Site is the page's site.
func (s *shortcode) Site() *site { return s.Page.Site() }

// Position is where the call is, "file:line:col" when printed.
func (s *shortcode) Position() position {
	return position{file: s.Page.st.post.File, line: s.line}
}

// Scratch and Store are the call's own scratch pad.
func (s *shortcode) Scratch() *funcs.Scratch { return s.Store() }

// Store is the call's own scratch pad.
func (s *shortcode) Store() *funcs.Scratch {
	if s.store == nil {
		s.store = s.Page.st.newScratch()
	}
	return s.store
}

// Ref and RelRef are the page's, for a map of arguments (path, lang,
// outputFormat).
func (s *shortcode) Ref(args any) (string, error)    { return s.Page.Ref(args) }
func (s *shortcode) RelRef(args any) (string, error) { return s.Page.RelRef(args) }

// position is a place in a content file, printed as Hugo prints one.
type position struct {
	file string
	line int
}

func (p position) String() string {
	return strconv.Quote(p.file + ":" + strconv.Itoa(p.line) + ":1")
}

// Filename, LineNumber and ColumnNumber are Hugo's text.Position fields.
func (p position) Filename() string  { return p.file }
func (p position) LineNumber() int   { return p.line }
func (p position) ColumnNumber() int { return 1 }
func (p position) IsValid() bool     { return p.line > 0 }
