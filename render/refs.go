package render

import (
	"cmp"
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
// target that is missing, ambiguous or hidden is Hugo's REF_NOT_FOUND:
// an error at line (a warning when refLinksErrorLevel says so), and the
// ref gives refLinksNotFoundURL ("" unless configured).
func (st *state) refFunc(args any, line int) (string, error) {
	ref, lang, format, err := refArgMap(args)
	if err != nil {
		return "", err
	}
	if ref == "" {
		return "", errors.New("missing path")
	}
	u, err := url.Parse(strings.ReplaceAll(ref, `\`, "/"))
	if err != nil {
		return st.refNotFound(line, "ref %q: %v", ref, err), nil
	}
	link := ""
	if u.Path != "" {
		how := refLookup
		how.lang = lang
		p, found, ambiguous := st.findPageBy(u.Path, how)
		switch {
		case ambiguous:
			return st.refNotFound(line, "ref %q: page reference is ambiguous", ref), nil
		case !found:
			return st.refNotFound(line, "ref %q: no such page", ref), nil
		case !p.Visible && isSectionPage(p.File):
			return st.refNotFound(line, "ref %q: the section page is not published", ref), nil
		case !p.Visible:
			return st.refNotFound(line, "ref %q: the post is not published", ref), nil
		}
		var ok bool
		if link, ok = p.output(format); !ok {
			return st.refNotFound(line, "ref %q: the page has no output format %q", ref, format), nil
		}
	} else {
		link = st.pageURL
	}
	if u.Fragment != "" {
		link += "#" + u.EscapedFragment()
	}
	return link, nil
}

// refNotFound reports a ref that finds no page, as Hugo's
// refLinksErrorLevel says, and is what the ref gives instead of a URL.
func (st *state) refNotFound(line int, format string, args ...any) string {
	if st.r.opts.RefLinksWarning {
		st.warn(line, format, args...)
	} else {
		st.issue(line, format, args...)
	}
	return st.r.opts.RefLinksNotFoundURL
}

// refArgMap reads the arguments of ref and relref as Hugo's urls.Ref:
// lang, when given, is the language whose pages the path names ("" for
// the page's own).
func refArgMap(args any) (ref, lang, format string, err error) {
	switch a := args.(type) {
	case map[string]any:
		lang, _ = a["lang"].(string)
		ref, _ = a["path"].(string)
		format, _ = a["outputFormat"].(string)
		if format == "" {
			format, _ = a["outputformat"].(string)
		}
		return ref, strings.ToLower(lang), format, nil
	case []any:
		if len(a) == 0 || len(a) > 2 {
			return "", "", "", errors.New("invalid number of arguments to ref")
		}
		ref = fmt.Sprint(a[0])
		if len(a) == 2 {
			format = fmt.Sprint(a[1])
		}
		return ref, "", format, nil
	case []string:
		return refArgMap(toAnySlice(a))
	case string:
		return a, "", "", nil
	}
	return "", "", "", fmt.Errorf("ref: unable to read %T as a path", args)
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

// How a lookup finds a page: a ref's way (relative to the page, from the
// content root, then by name), a page's GetPage (no name), the site's
// GetPage (from the root, then by name); among the pages of lang, the
// page's own language when "" (a ref's lang option sets another).
type lookup struct {
	relative, byName bool
	lang             string
}

var (
	refLookup     = lookup{relative: true, byName: true}
	pageGetLookup = lookup{relative: true}
	siteGetLookup = lookup{byName: true}
)

// findPage is Hugo's getContentNode for refs.
func (st *state) findPage(ref string) (p Page, found, ambiguous bool) {
	return st.findPageBy(ref, refLookup)
}

// findPageBy is Hugo's getContentNode.
func (st *state) findPageBy(ref string, how lookup) (p Page, found, ambiguous bool) {
	ref = strings.TrimSuffix(strings.ReplaceAll(ref, `\`, "/"), "/")
	in := ref
	if ref == "" {
		ref = "/"
	}
	switch {
	case path.Ext(ref) != "":
		return st.findPageFile(in, ref, true, how)
	case ref == "/":
		return st.findPageFile(in, "/_index.md", false, how)
	case strings.HasSuffix(ref, "/index"):
		if p, found, ambiguous = st.findPageFile(in, ref+"/index.md", false, how); found {
			return p, found, ambiguous
		}
	}
	return st.findPageFile(in, ref+".md", false, how)
}

// findPageFile is Hugo's getContentNodeForRef: ref has an extension,
// hadExt tells whether the author wrote it.
func (st *state) findPageFile(in, ref string, hadExt bool, how lookup) (Page, bool, bool) {
	if !strings.HasPrefix(ref, "/") && how.relative {
		dir, bundle := pageDir(st.post) // a regular page's folder; a bundle's container
		if bundle != "" && hadExt && strings.HasPrefix(ref, "../") {
			dir = bundle
		}
		if p, ok := st.lookupPath(HugoPath(path.Join(dir, ref)), how.lang); ok {
			return p, true, false
		}
	}
	if strings.HasPrefix(ref, ".") {
		return Page{}, false, false
	}
	if p, ok := st.lookupPath(HugoPath(ref), how.lang); ok {
		return p, true, false
	}
	if strings.Contains(in, "/") || !how.byName {
		return Page{}, false, false
	}
	return st.lookupName(hugoName(ref), how.lang)
}

// getPage is GetPage, of the page (how is pageGetLookup) or of the site
// (siteGetLookup): the page ref names. In a site's model it is any page
// the model has, one that is not rendered too (a headless bundle); else
// a visible post. Not found is nil, as Hugo's nil page; an ambiguous
// name is an error, as in Hugo.
func (st *state) getPage(ref string, how lookup) (any, error) {
	t, found, ambiguous := st.findPageBy(ref, how)
	switch {
	case ambiguous:
		return nil, fmt.Errorf("page reference %q is ambiguous", ref)
	case !found:
		return nil, nil
	}
	if l := st.lists(); l != nil {
		if pg := l.six.model(t); pg != nil {
			return l.page(pg), nil
		}
		return nil, nil
	}
	if !t.Visible {
		return nil, nil
	}
	return &pageRef{t: t}, nil
}

// contentPath is a content file's path from the content root (Hugo's
// .File.Path): in a site's model, whatever mount it came from.
func (st *state) contentPath(file string) string {
	if six, ok := st.res.(*SiteIndex); ok {
		return six.snap.Config().ContentPath(file)
	}
	return file
}

// lists are the site's lists as this rendering's templates see them; nil
// when the resolver knows no site model. Reading them makes the result
// hold under this snapshot only (Ref.Site).
func (st *state) lists() *siteLists {
	six, ok := st.res.(*SiteIndex)
	if !ok {
		return nil
	}
	st.remember(Ref{Site: six.snap.ID()})
	lang := cmp.Or(st.root().post.Lang, six.snap.Config().DefaultLanguage)
	return six.lists(lang, st.r)
}

// langKey is key (a Hugo path or name) among lang's pages, the page's
// own language's when lang is "": in a site's model, each language's
// pages are apart (SiteIndex.langKey); an index of posts has one.
func (st *state) langKey(lang, key string) string {
	if six, ok := st.res.(*SiteIndex); ok {
		return six.langKey(cmp.Or(lang, st.root().post.Lang), key)
	}
	return key
}

// pageResolver is the rendering's PageResolver: the resolver's own, or
// one over the posts it can name.
func (st *state) pageResolver() PageResolver {
	if pr, ok := st.res.(PageResolver); ok {
		return pr
	}
	return postPages{st}
}

// lookupPath and lookupName ask the page resolver, among lang's pages
// ("" for the page's own language), and remember the question and answer
// in the result's Refs.
func (st *state) lookupPath(p, lang string) (Page, bool) {
	p = st.langKey(lang, p)
	pg, found := st.pageResolver().PagePath(p)
	st.remember(Ref{Path: p, Page: pg, Found: found})
	return pg, found
}

func (st *state) lookupName(name, lang string) (Page, bool, bool) {
	name = st.langKey(lang, name)
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
