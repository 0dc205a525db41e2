package render

import (
	"errors"
	"fmt"
	"net/url"
	"path"
	"strings"

	"folio/pipeline"
)

// ref and relref find pages as Hugo 0.165 does (hugolib's getPageRef):
//
//   - The path is made a content file path: with no extension, ".md" is
//     tried (and for a last "/index", "/index/index.md" first); "/" is the
//     home page's "_index.md".
//   - Not starting with "/", it is tried relative to the page first: to
//     the page's folder for a regular page or a leaf bundle's index (so
//     "other" from posts/a.md or posts/a/index.md is posts/other), to the
//     bundle folder itself for "../x.md" from a bundle's index.
//   - A path starting with "." is only page-relative. Others are then
//     tried from the content root.
//   - A path with no "/" at all is last matched against the names of the
//     pages' files (a bundle's folder name); two matches are ambiguous.
//
// Both give the target's absolute URL (folio writes every URL absolute),
// "#fragment" kept; outputFormat picks another output's URL. A target
// that is not found, ambiguous or not shown is an error (Hugo stops the
// build on REF_NOT_FOUND), and the ref renders as nothing.

// refArgs reads a ref or relref call's arguments: a path, optionally an
// output format (positional), or path, lang and outputFormat (named).
func (st *state) refArgs(sc *shortcode) (string, bool) {
	var args any
	switch p := sc.Params.(type) {
	case []any:
		args = p
	case map[string]any:
		args = p
	default:
		st.issue(sc.line, "%s: missing path", sc.Name)
		return "", true
	}
	u, err := st.refFunc(args, sc.line)
	if err != nil {
		st.issue(sc.line, "%s: %v", sc.Name, err)
		return "", true
	}
	if u == "" {
		return "", true
	}
	return u, false
}

// refFunc is the ref and relref template functions: args is a path, a
// list (path, output format) or a map (path, lang, outputFormat). A
// target that is missing or hidden is reported at line and yields "".
func (st *state) refFunc(args any, line int) (string, error) {
	ref, format, err := refArgMap(args)
	if err != nil {
		return "", err
	}
	if ref == "" {
		return "", errors.New("missing path")
	}
	u, err := url.Parse(strings.ReplaceAll(ref, `\`, "/"))
	if err != nil {
		st.issue(line, "ref %q: %v", ref, err)
		return "", nil
	}
	link := ""
	if u.Path != "" {
		p, found, ambiguous := st.findPage(u.Path)
		switch {
		case ambiguous:
			st.issue(line, "ref %q: page reference is ambiguous", ref)
			return "", nil
		case !found:
			st.issue(line, "ref %q: no such page", ref)
			return "", nil
		case !p.Visible:
			st.issue(line, "ref %q: the post is not published", ref)
			return "", nil
		}
		var ok bool
		if link, ok = p.output(format); !ok {
			st.issue(line, "ref %q: the page has no output format %q", ref, format)
			return "", nil
		}
	} else {
		link = st.pageURL
	}
	if u.Fragment != "" {
		link += "#" + u.EscapedFragment()
	}
	return link, nil
}

// refArgMap reads the arguments of ref and relref as Hugo's urls.Ref.
func refArgMap(args any) (ref, format string, err error) {
	switch a := args.(type) {
	case map[string]any:
		if lang, _ := a["lang"].(string); lang != "" {
			// One language per site in folio: a ref to another one
			// finds nothing.
			_ = lang
		}
		ref, _ = a["path"].(string)
		format, _ = a["outputFormat"].(string)
		if format == "" {
			format, _ = a["outputformat"].(string)
		}
		return ref, format, nil
	case []any:
		if len(a) == 0 || len(a) > 2 {
			return "", "", errors.New("invalid number of arguments to ref")
		}
		ref = fmt.Sprint(a[0])
		if len(a) == 2 {
			format = fmt.Sprint(a[1])
		}
		return ref, format, nil
	case []string:
		return refArgMap(toAnySlice(a))
	case string:
		return a, "", nil
	}
	return "", "", fmt.Errorf("ref: unable to read %T as a path", args)
}

func toAnySlice(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// findRefPage finds a page as a ref does.
func (st *state) findRefPage(ref string) (Page, bool) {
	p, found, ambiguous := st.findPage(ref)
	return p, found && !ambiguous
}

// findPage is Hugo's getContentNode for refs.
func (st *state) findPage(ref string) (p Page, found, ambiguous bool) {
	ref = strings.TrimSuffix(strings.ReplaceAll(ref, `\`, "/"), "/")
	in := ref
	if ref == "" {
		ref = "/"
	}
	switch {
	case path.Ext(ref) != "":
		return st.findPageFile(in, ref, true)
	case ref == "/":
		return st.findPageFile(in, "/_index.md", false)
	case strings.HasSuffix(ref, "/index"):
		if p, found, ambiguous = st.findPageFile(in, ref+"/index.md", false); found {
			return p, found, ambiguous
		}
	}
	return st.findPageFile(in, ref+".md", false)
}

// findPageFile is Hugo's getContentNodeForRef: ref has an extension,
// hadExt tells whether the author wrote it.
func (st *state) findPageFile(in, ref string, hadExt bool) (Page, bool, bool) {
	if !strings.HasPrefix(ref, "/") {
		dir, bundle := pageDir(st.post) // a regular page's folder; a bundle's container
		if bundle != "" && hadExt && strings.HasPrefix(ref, "../") {
			dir = bundle
		}
		if p, ok := st.lookupPath(HugoPath(path.Join(dir, ref))); ok {
			return p, true, false
		}
	}
	if strings.HasPrefix(ref, ".") {
		return Page{}, false, false
	}
	if p, ok := st.lookupPath(HugoPath(ref)); ok {
		return p, true, false
	}
	if strings.Contains(in, "/") {
		return Page{}, false, false
	}
	return st.lookupName(hugoName(ref))
}

// pageResolver is the rendering's PageResolver: the resolver's own, or
// one over the posts it can name.
func (st *state) pageResolver() PageResolver {
	if pr, ok := st.res.(PageResolver); ok {
		return pr
	}
	return postPages{st}
}

// lookupPath and lookupName ask the page resolver and remember the
// question and answer in the result's Refs.
func (st *state) lookupPath(p string) (Page, bool) {
	pg, found := st.pageResolver().PagePath(p)
	st.remember(Ref{Path: p, Page: pg, Found: found})
	return pg, found
}

func (st *state) lookupName(name string) (Page, bool, bool) {
	pg, found, ambiguous := st.pageResolver().PageName(name)
	st.remember(Ref{Name: name, Page: pg, Found: found, Ambiguous: ambiguous})
	return pg, found, ambiguous
}

// postPages answers page lookups with a Resolver that only knows posts
// by file: the file behind a Hugo path is one of a few names.
type postPages struct{ st *state }

func (pp postPages) PagePath(p string) (Page, bool) {
	rel := strings.TrimPrefix(p, "/")
	for _, file := range []string{rel + ".md", rel + "/index.md"} {
		if post, visible := pp.st.res.File(file); post != nil {
			return pp.page(post, visible), true
		}
	}
	return Page{}, false
}

func (pp postPages) PageName(name string) (Page, bool, bool) {
	if post, visible := pp.st.res.Slug(name); post != nil && hugoName(post.File) == name {
		return pp.page(post, visible), true, false
	}
	return Page{}, false, false
}

func (pp postPages) page(p *pipeline.Post, visible bool) Page {
	return Page{File: p.File, URL: pp.st.postURL(p), Title: p.Title, Visible: visible}
}
