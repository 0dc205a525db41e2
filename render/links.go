package render

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"folio/pipeline"

	"github.com/yuin/goldmark/util"
)

// A target is what a link destination resolves to.
type target struct {
	// url goes in the HTML: absolute, or "#fragment" for a place in the
	// same page; escaped for a URL but not for HTML.
	url string
	// md goes in the Markdown alternate: always absolute.
	md string
	// changed reports that md differs in meaning from what was written
	// (a relative link made absolute, a link to a post made canonical).
	changed bool
	// drop means the link names a post that is not visible (or none):
	// the link is rendered as its text alone.
	drop bool
}

// resolveDest resolves a link destination as written in Markdown (with
// its escapes already undone). image links do not name posts.
func (st *state) resolveDest(dest string, image bool, line int) target {
	if dest == "" {
		return target{}
	}
	esc := string(util.URLEscape([]byte(dest), false))
	if strings.HasPrefix(dest, "#") {
		return target{url: esc, md: st.pageURL + esc, changed: true}
	}
	u, err := url.Parse(esc)
	if err != nil {
		return target{url: esc, md: esc}
	}
	absolute := u.Scheme != "" || u.Host != "" || strings.HasPrefix(esc, "//")
	if absolute && !st.onSite(u) {
		return target{url: esc, md: esc}
	}
	// A URL of this site, relative or absolute, may name a post or a
	// file of its bundle: an unpublished one must not be linked.
	if t, ok := st.postLink(dest, u, image, line); ok {
		return t
	}
	if absolute {
		return target{url: esc, md: esc}
	}
	abs := st.page.ResolveReference(u).String()
	return target{url: abs, md: abs, changed: true}
}

// embeddedDest resolves dest as Hugo 0.165's embedded link and image
// render hooks do on a site that has no hook of its own of the kind
// (pipeline.Config.EmbeddedLinkHooks: a multilingual site's default): a
// relative link that the page's .GetPage finds (hookPage) is that page's
// URL; a relative destination that .Resources.Get finds is that file's
// URL, though it be another language's file (pic.png on a French page
// is /fr/posts/x/pic.fr.png); either with the query and fragment
// written; a link to a fragment ("#notes") is the page's URL with it,
// and "#" alone is "". ok is false for any other destination, which folio resolves by its own
// rules. The answer depends on the site's pages, the bundle's files and
// its translations: the result is made again with each new snapshot.
func (st *state) embeddedDest(dest string, image bool) (t target, ok bool) {
	six, isSite := st.res.(*SiteIndex)
	fragment := strings.HasPrefix(dest, "#") && dest != "#"
	// "#" alone: the hooks' urls.Parse "#" writes back as "", which they
	// write (href="", src=""); the twin keeps the page's URL.
	bare := dest == "#"
	if !isSite || dest == "" || (fragment && image) {
		return target{}, false
	}
	kind, on := "link", false
	if link, img := six.snap.Config().EmbeddedLinkHooks(); image {
		kind, on = "image", img
	} else {
		on = link
	}
	if !on || st.hook(kind, "") != nil {
		return target{}, false
	}
	if bare {
		return target{url: "", md: st.pageURL + "#", changed: true}, true
	}
	if fragment {
		// The page's own URL with the fragment: a summary's link to a
		// heading goes to the page wherever the summary is shown.
		abs := st.pageURL + string(util.URLEscape([]byte(dest), false))
		return target{url: abs, md: abs, changed: true}, true
	}
	u, err := url.Parse(dest)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" {
		return target{}, false
	}
	name := strings.TrimPrefix(u.Path, "./")
	abs, found := "", false
	if !image {
		abs, found = st.hookPage(six, name)
	}
	if !found && st.post.Bundle != "" {
		abs, found = st.bundleFile(six, name)
	}
	if !found {
		abs, found = st.assetFile(six, name)
	}
	if !found {
		return target{}, false
	}
	abs += suffix(u)
	return target{url: abs, md: abs, changed: true}, true
}

// hookPage is the URL of the page that the embedded link hook's
// .GetPage finds at p, in the page's language, relative to the page
// first ("b", "b.md", "../" and "" name pages: "" is the home page); ""
// for a page the site has but does not render. found is false for a
// page the site does not have (a draft), whose link folio resolves by
// its own rules. The answer depends on the site's pages: the result is
// made again with each new snapshot.
func (st *state) hookPage(six *SiteIndex, p string) (string, bool) {
	st.remember(Ref{Site: six.snap.ID()})
	t, found, ambiguous := st.findPageBy(p, pageGetLookup)
	if !found || ambiguous || six.model(t) == nil {
		return "", false
	}
	if !t.Visible {
		return "", true
	}
	return t.URL, true
}

// bundleFile is the URL of the file of the page's bundle that Hugo's
// .Resources.Get(name) finds (pipeline.Snapshot.BundleFile), else of the
// bundle of a translation in another folder (a content mount of its
// language), in the languages' order: a French page of content/fr finds
// the English content/en bundle's pic.png, as Hugo 0.165 does. The
// answer depends on the bundle's files and its translations: the result
// is made again with each new snapshot.
func (st *state) bundleFile(six *SiteIndex, name string) (string, bool) {
	st.remember(Ref{Site: six.snap.ID()})
	file, found := six.snap.BundleFile(st.post, name)
	if !found {
		file, found = six.translationFile(st.post, name)
	}
	if !found {
		return "", false
	}
	return six.url(file), true
}

// assetFile is the URL of the file of assets/ that Hugo's
// resources.Get(name) finds, at the site's root in every language, where
// the site publishes it (a page's image, figure or, with the embedded
// link hook, link names it: pipeline's imageRoutes). The answer depends
// on the site's files: the result is made again with each new snapshot.
func (st *state) assetFile(six *SiteIndex, name string) (string, bool) {
	st.remember(Ref{Site: six.snap.ID()})
	rel := strings.TrimPrefix(path.Clean("/"+name), "/")
	file, ok := six.snap.Asset(rel)
	if !ok || rel == "" {
		return "", false
	}
	if r, ok := six.snap.Route("/" + rel); !ok || r.Kind != pipeline.RouteFile || r.File != file {
		return "", false
	}
	return six.url("/" + rel), true
}

// figureSrc resolves a figure's src as Hugo 0.165's figure shortcode
// does on any site: a relative src that .Resources.Get finds is that
// file's URL, without the query and fragment (pic.png on a French page
// is /fr/posts/x/pic.fr.png); ok is false for any other.
func (st *state) figureSrc(src string) (t target, ok bool) {
	six, isSite := st.res.(*SiteIndex)
	if !isSite {
		return target{}, false
	}
	u, err := url.Parse(src)
	if err != nil || u.Scheme != "" || u.Host != "" || u.Opaque != "" || u.Path == "" {
		return target{}, false
	}
	abs, found := "", false
	if st.post.Bundle != "" {
		abs, found = st.bundleFile(six, u.Path)
	}
	if !found {
		abs, found = st.assetFile(six, u.Path)
	}
	if !found {
		return target{}, false
	}
	return target{url: abs, md: abs, changed: true}, true
}

// postLink resolves a link that names a post: a content file
// ("other.md", "../2024/other.md", "/blog/other.md"), or a post's URL
// ("../other/", "/blog/other/", "/blog/other.md", absolute or not). A
// link or image into a bundle ("../trip/photo.jpg") is dropped when the
// bundle's post is not visible, and otherwise left alone; so is an image
// whose src is a hidden post's URL. ok is false for any other link,
// which is then an ordinary URL.
func (st *state) postLink(dest string, u *url.URL, image bool, line int) (t target, ok bool) {
	var p *pipeline.Post
	var visible bool
	file := st.linkedFile(u.Path)
	if file != "" && u.Host == "" {
		p, visible = st.lookupFile(file)
		if p == nil {
			// A content file inside a bundle is a page resource in Hugo,
			// which never publishes it: the link would go nowhere.
			switch b, vis := st.bundleOf(file); {
			case b != nil && vis:
				st.warn(line, "link to %q: a content file inside a page bundle is not published (Hugo makes it a page resource); the link is left out", dest)
				return target{drop: true}, true
			case b != nil:
				p = b // a hidden bundle's: not published either
			}
		}
	}
	switch {
	case file != "" && u.Host == "":
		// A link or an image naming a content file: one of a published
		// post is a file URL to an image, as written.
		if image && p != nil && visible {
			return target{}, false
		}
	case st.served(u):
		return target{}, false // a URL the site serves: a page, a file
	default:
		slug, explicit, inBundle := st.linkedSlug(u)
		if inBundle {
			// A file below a post's URL, at any depth of sections, is
			// its bundle's: one of a post that is not published is
			// dropped (a path its own bundle does not hold is left as
			// written, as Hugo leaves it: rtdevx.github.io).
			if p, visible = st.bundlePost(u); p != nil {
				if p == st.post || visible {
					return target{}, false
				}
				break
			}
			// Below no post's URL, the path is read as a flat
			// section's /<slug>/<file>: a missing post's file is
			// dropped as a hidden one's is, so that nothing tells them
			// apart (TestUnpublishedNeverServed).
			if slug == st.post.Slug {
				return target{}, false
			}
			if p, visible = st.lookupSlug(slug); p != nil && visible {
				return target{}, false
			}
			break
		}
		if slug == "" {
			return target{}, false // not a post
		}
		p, visible = st.lookupSlug(slug)
		if image && (p == nil || visible) {
			// Images name files, not pages; but one whose src is an
			// unpublished post's URL names that post all the same.
			return target{}, false
		}
		if p == nil && !explicit {
			return target{}, false
		}
	}
	switch {
	case p == nil:
		// Hugo publishes a page with a link that goes nowhere, so it is
		// a warning (CONTRACT.md: what Hugo accepts and publishes is
		// never a problem); the link is left out all the same, as one
		// to a post that is not published is, so that nothing tells
		// the two apart.
		st.warn(line, "link to %q: no such post; the link is left out", dest)
		return target{drop: true}, true
	case !visible && isSectionPage(p.File):
		// A section that is not published (a draft _index.md), or a
		// file of its own: no post is involved. (Its pages are
		// published or not each by itself.)
		if file != "" || path.Ext(u.Path) == "" { // its _index.md, or its URL
			st.issue(line, "link to %q: the section page %s is not published", dest, p.File)
		} else {
			st.issue(line, "link to %q: a file of the section %s, whose page (%s) is not published, so neither is the file", dest, path.Dir(p.File), path.Base(p.File))
		}
		return target{drop: true}, true
	case !visible:
		st.issue(line, "link to %q: the post is not published", dest)
		return target{drop: true}, true
	}
	abs := st.postURL(p) + suffix(u)
	return target{url: abs, md: abs, changed: true}, true
}

// isSectionPage reports whether file is a section's own page, an
// _index file (_index.md, _index.html, …).
func isSectionPage(file string) bool {
	base := path.Base(file)
	return strings.TrimSuffix(base, path.Ext(base)) == "_index"
}

// linkedFile returns the content file a link path ending in ".md" names,
// "" for other paths and for a file the post's own bundle publishes.
func (st *state) linkedFile(p string) string {
	if !strings.HasSuffix(strings.ToLower(p), ".md") {
		return ""
	}
	root := contentRoot(st.post)
	var file string
	if strings.HasPrefix(p, "/") {
		file = root + path.Clean(p)[1:]
	} else {
		file = path.Join(path.Dir(st.post.File), p)
	}
	if file == ".." || strings.HasPrefix(file, "../") || !strings.HasPrefix(file, root) {
		return ""
	}
	if b := st.post.Bundle; b != "" && strings.HasPrefix(file, b+"/") {
		if _, found := slices.BinarySearch(st.post.Resources, file[len(b)+1:]); found {
			return ""
		}
	}
	return file
}

// contentRoot is the folder of the content FS that p's content root is,
// with a final "/" ("content/" for a site's folder, "" for a content
// folder of its own): what a link's "/blog/other.md" is under.
func contentRoot(p *pipeline.Post) string {
	dir := path.Dir(p.File)
	if p.Kind == pipeline.KindPage && p.Bundle != "" {
		dir = path.Dir(p.Bundle)
	}
	if p.Kind == "" || (p.Dir != "" && dir != p.Dir && !strings.HasSuffix(dir, "/"+p.Dir)) {
		return "" // not read as a site's page
	}
	root := strings.TrimSuffix(strings.TrimSuffix(dir, p.Dir), "/")
	if root == "" || root == "." {
		return ""
	}
	return root + "/"
}

// linkedSlug returns the slug of a link to a post's page: u resolves to
// <base>/<section>/<slug>/, <section>/<slug>.md or <section>/<slug>.
// explicit is false for the last form, which may as well be a file.
// inBundle reports <section>/<slug>/<file>, a file of the post's bundle.
func (st *state) linkedSlug(u *url.URL) (slug string, explicit, inBundle bool) {
	abs := st.page.ResolveReference(u)
	if !st.onSite(abs) {
		return "", false, false
	}
	// The server answers "//" as "/", and paths in any case (Hugo's
	// URLs are lower case): /BLOG//draft/ names the post /blog/draft/ does.
	p := collapseSlashes(abs.Path)
	prefix := st.r.base.Path + st.r.opts.Section + "/"
	if len(p) < len(prefix) || !strings.EqualFold(p[:len(prefix)], prefix) {
		return "", false, false
	}
	rest := p[len(prefix):]
	if rest == "" {
		return "", false, false
	}
	if s, file, ok := strings.Cut(rest, "/"); ok && file != "" && s != "" {
		return s, true, true
	}
	if s, ok := strings.CutSuffix(rest, "/"); ok {
		rest, explicit = s, true
	} else if s, ok := strings.CutSuffix(rest, ".md"); ok {
		rest, explicit = s, true
	}
	if rest == "" || strings.Contains(rest, "/") {
		return "", false, false
	}
	return rest, explicit, false
}

// bundlePost finds the post whose bundle holds the file a URL of the
// main section names: of the posts whose slug is one of the path's
// folders, the one whose URL the path is below, at any depth of nested
// sections ("/posts/2025/trip/img/a.png" is below trip's URL). A post
// that is not published has no URL: its slug alone names it, so that no
// link into its bundle is kept; but a published post whose URL the path
// is below holds it whatever its folders are named ("trip/gallery/b.png"
// is trip's even when a draft is called "gallery"). nil when the path is
// below no post's.
func (st *state) bundlePost(u *url.URL) (*pipeline.Post, bool) {
	p := collapseSlashes(st.page.ResolveReference(u).Path)
	var hidden *pipeline.Post
	for dir := path.Dir(p); dir != "/" && dir != "."; dir = path.Dir(dir) {
		post, visible := st.lookupSlug(path.Base(dir))
		switch {
		case post == nil:
			continue
		case !visible:
			if hidden == nil {
				hidden = post
			}
			continue
		}
		if pu, err := url.Parse(st.postURL(post)); err == nil && pu.Path != "" &&
			strings.HasPrefix(strings.ToLower(p), strings.ToLower(strings.TrimSuffix(pu.Path, "/")+"/")) {
			return post, visible
		}
	}
	return hidden, false
}

// served reports whether the site serves u, a URL of the site: a page
// or a file of a Hugo site's model, at whatever URL its permalinks give
// it. Without a SiteIndex nothing is known to be served.
func (st *state) served(u *url.URL) bool {
	six, ok := st.res.(*SiteIndex)
	if !ok {
		return false
	}
	abs := st.page.ResolveReference(u)
	rel, ok := strings.CutPrefix(abs.Path, st.r.base.Path)
	if !ok || !st.onSite(abs) {
		return false
	}
	st.remember(Ref{Site: six.snap.ID()})
	_, found := six.snap.Route("/" + rel)
	return found
}

// collapseSlashes turns each run of "/" into one.
func collapseSlashes(p string) string {
	for strings.Contains(p, "//") {
		p = strings.ReplaceAll(p, "//", "/")
	}
	return p
}

// onSite reports whether u (resolved against the page) is on the site's
// own host, over http or https.
func (st *state) onSite(u *url.URL) bool {
	abs := st.page.ResolveReference(u)
	return (abs.Scheme == "http" || abs.Scheme == "https") && strings.EqualFold(abs.Host, st.page.Host)
}

// suffix is the query and fragment of u, to keep on a rewritten link.
func suffix(u *url.URL) string {
	s := ""
	if u.RawQuery != "" {
		s += "?" + u.RawQuery
	}
	if u.Fragment != "" {
		s += "#" + u.EscapedFragment()
	}
	return s
}

// lookupFile and lookupSlug ask the resolver and remember the question
// and answer in the result's Refs.
// bundleOf finds the page bundle a content file sits in (at any depth
// below its folder); nil when none does.
func (st *state) bundleOf(file string) (*pipeline.Post, bool) {
	sec := contentRoot(st.post) + st.r.opts.Section
	for dir := path.Dir(file); dir != sec && dir != "." && dir != "/" && strings.HasPrefix(dir, sec+"/"); dir = path.Dir(dir) {
		if p, visible := st.lookupFile(dir + "/index.md"); p != nil && p.Bundle == dir {
			return p, visible
		}
	}
	return nil, false
}

func (st *state) lookupFile(file string) (*pipeline.Post, bool) {
	p, visible := st.res.File(file)
	st.remember(Ref{File: file, Post: p, Visible: visible})
	return p, visible
}

func (st *state) lookupSlug(slug string) (*pipeline.Post, bool) {
	p, visible := st.res.Slug(slug)
	st.remember(Ref{Slug: slug, Post: p, Visible: visible})
	return p, visible
}

func (st *state) remember(r Ref) {
	root := st.root()
	key := [5]string{r.File, r.Slug, r.Path, r.Name}
	if r.Site != 0 {
		key[4] = "site"
	}
	if root.looked == nil {
		root.looked = map[[5]string]bool{}
	}
	if !root.looked[key] {
		root.looked[key] = true
		root.refs = append(root.refs, r)
	}
}
