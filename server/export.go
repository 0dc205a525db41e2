package server

import (
	"cmp"
	"net/url"
	"path"
	"slices"
	"strings"

	"folio/pipeline"
	"folio/render"
)

// NotFoundPath is the path whose answer is the site's 404 page. No route
// claims it, so the server answers it with the page every unknown path
// gets; the static export stores that answer under the same name, which is
// where nginx's error_page finds it.
const NotFoundPath = "/404.html"

// ExportPaths lists every URL path (escaped, as the site emits them) that
// the static export holds for the current snapshot: the paths of every
// row whose Export is ExportFile, in table order (a post's page, Markdown
// and bundle files together), and NotFoundPath last.
//
// The list comes from the snapshot, not from a crawl, so a post no page
// links to is still exported. An alias that happens to equal NotFoundPath
// is the only way the last entry answers something other than 404; the
// exporter checks statuses.
//
// A static folder's index.html is exported at the folder's URL, which
// serve answers with it too (lookupSiteFile): the export's file for
// "/x/" is x/index.html, as a static host serves a folder. Its own URL,
// "/x/index.html", answers the same (ExportPathsIndexes).
func (s *Server) ExportPaths() []string {
	paths, _ := s.ExportPathsIndexes()
	return paths
}

// ExportPathsIndexes is ExportPaths, and the static folders' index.html
// files it lists at their folder's URL, by their own URL path
// ("/x/index.html"), in the same order: serve answers both URLs with the
// file, as a static host does (Hugo publishes it at x/index.html), so the
// nginx config and the Worker answer both with the one file.
func (s *Server) ExportPathsIndexes() (paths, indexes []string) {
	st := s.load()
	paths = s.exportList(ExportFile)
	for i, p := range paths {
		dir, ok := strings.CutSuffix(p, "/index.html")
		if !ok {
			continue
		}
		if r, ok := lookupSiteFile(st, dir+"/"); ok && r.Path == p {
			paths[i] = dir + "/"
			indexes = append(indexes, p)
		}
	}
	// The site's own static 404.html, a file row, is the 404 page too
	// (notFound): listed once, last.
	paths = slices.DeleteFunc(paths, func(p string) bool { return p == NotFoundPath })
	return append(paths, NotFoundPath), indexes
}

// ExportRedirects lists the paths that may answer 301 for the current
// snapshot (the rows whose Export is ExportRedirect), for a static host to
// redirect the same way. An alias that a row above claims answers that
// row instead; the exporter keeps only real 301s.
func (s *Server) ExportRedirects() []string { return s.exportList(ExportRedirect) }

// An Alias is a path the static export writes as an HTML redirect page
// (see ExportAliases).
type Alias struct {
	// Path is the alias, escaped as the site emits it: "/old/",
	// "/posts/page/1/", "/old.html".
	Path string
	// Lang is the language of the page it redirects to, as Hugo writes
	// it in the alias page's lang (the language's locale, else its code).
	Lang string
	// Source is the content file whose front matter declares the alias,
	// as the author names it; "" for a list's /page/1/ and a language's
	// redirect.
	Source string
	// Line is the line of Source's aliases key, 0 when not known.
	Line int
	// Page is what the site's alias template writes for it (Hugo's
	// alias page), nil when the site has none, or it failed (Problem).
	Page    []byte
	Problem *pipeline.Problem
}

// ExportAliases lists the aliases that serve answers with a 301 and that
// Hugo writes as an HTML redirect page, for the export to write one at
// each (a static host that knows nothing of folio cannot redirect): a
// page's aliases, a list's /page/1/ and a language's redirect, in the
// site model's order. An alias that a row above claims (a page, a file,
// a twin) answers that row in serve, and is left out; so is an alias's
// spelling without its final slash, which a static host sends to the
// folder itself.
func (s *Server) ExportAliases() []Alias {
	st := s.load()
	cfg := st.snap.Config()
	var out []Alias
	for _, r := range st.snap.Routes() {
		if r.Kind != pipeline.RouteAlias {
			continue
		}
		p := pipeline.EscapePath(r.Path)
		u, err := url.Parse(p)
		if err != nil {
			continue
		}
		switch m := st.routes.find(st, routingPathOf(u)); {
		case m.route.Kind == KindAlias, m.route.Kind == KindHome && homeMoved(st):
		default:
			continue
		}
		a := Alias{Path: p, Lang: cfg.Language}
		if t, ok := st.snap.Route(r.Target); ok && t.Page != nil {
			var lang render.AliasLang
			if l := cfg.Lang(t.Page.Lang); l != nil {
				a.Lang = cmp.Or(l.Locale, l.Code)
				lang = render.AliasLang{Code: l.Code, Locale: l.Locale}
			}
			if p := st.snap.AliasSource(r); p != nil { // a page's or a list's own
				a.Source, a.Line = st.snap.DisplayPath(p.File), p.AliasesLine()
			}
			rs := st.renders()
			target := t.Page.Post
			var body render.Result
			if target == nil { // a list without an _index: its title and kind
				target = &pipeline.Post{Title: t.Page.Title, PageMeta: &pipeline.PageMeta{Kind: t.Page.Kind}}
			} else if rs.renderer.HasAliasTemplate() {
				body = s.rendered(st, target)
			}
			a.Page, a.Problem = rs.renderer.AliasPage(target, cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(r.Target), "/")), lang, rs.resolver, body)
		}
		out = append(out, a)
	}
	return out
}

// exportList is the paths of the rows marked what. A run of rows made per
// post is listed post by post.
func (s *Server) exportList(what Export) []string {
	st := s.load()
	rows := st.routes.rows
	var out []string
	seen := map[string]bool{}
	add := func(paths ...string) {
		for _, p := range paths {
			if !seen[p] { // a site's page a literal row answers (its home)
				seen[p] = true
				out = append(out, p)
			}
		}
	}
	for i := range rows {
		rt := &rows[i]
		switch {
		case exportOf(st, rt) != what:
		case rt.list != nil:
			add(rt.list(st)...)
		case rt.pat.wild == wildNone:
			add(rt.Path)
		}
	}
	return out
}

// exportOf is what the export does with rt's paths for st: the row's
// Export, but a redirect for the home row where / answers 301 to the
// default language's home (homeMoved), and nothing for the home's rows
// where they do not answer (elsewhere: the site's own files there are
// the file row's).
func exportOf(st *state, rt *Route) Export {
	switch {
	case rt.pat.wild == wildNone && elsewhere(st, rt):
		return ExportNone
	case rt.Kind == KindHome && homeMoved(st):
		return ExportRedirect
	}
	return rt.Export
}

// cursorPaths are the cursor pages a walk of the API issues.
func cursorPaths(st *state) []string {
	var out []string
	for _, c := range st.snap.Cursors(st.snap.Config().API.PageSize) {
		out = append(out, "/api/posts/cursor/"+c+".json")
	}
	return out
}

// assetPaths lists the theme's static assets, each under its plain and
// its fingerprinted name, as the server answers both.
func assetPaths(st *state) []string {
	out := make([]string, 0, len(st.theme.assets))
	for name := range st.theme.assets {
		out = append(out, "/static/"+escapePath(name))
	}
	slices.Sort(out)
	return out
}

// escapePath escapes each segment of a slash-separated file name the way
// the site's URLs are written.
func escapePath(name string) string {
	segs := strings.Split(path.Clean(name), "/")
	for i, s := range segs {
		segs[i] = url.PathEscape(s)
	}
	return strings.Join(segs, "/")
}

// Release drops what the current snapshot prepared for urlPath when it
// belongs to a page of the site: for a post's page or Markdown URL, the
// post's render and its page and Markdown answers; for a list's page or
// further page (the directory among them), its HTML and Markdown; for a
// feed or a file, its answer; for the API's posts.json and cursor pages,
// llms.txt, llms-full.txt and the sitemaps, theirs (each made of every
// post: some 25 MB at 10,000 posts that a build held to its end).
// They are made again, byte for byte, if asked for. The static export
// calls it once a page's routes are written, so that a build holds a few
// pages' answers at a time rather than the whole site's. Other paths
// (folio's own small ones, the home page) are left alone.
func (s *Server) Release(urlPath string) {
	st := s.current.Load()
	u, err := url.Parse(urlPath)
	if err != nil {
		return
	}
	m := st.routes.find(st, routingPathOf(u))
	st.prepared.Clear() // none in the export; they would hold what is dropped
	switch m.route.Kind {
	case KindPage, KindMarkdown:
		pg, n := m.site.Page, max(m.site.Pager, 1)
		switch {
		case pg == nil:
		case pg.Kind == pipeline.KindPage:
			st.releasePost(pg.Post)
		case n == 1 && pg == st.snap.Home(st.snap.Config().DefaultLanguage):
			// The home page is folio's own (sitePage), small, and asked
			// again by the export's probes.
		case n == 1 && pg == st.snap.Directory():
			// The directory lists every post (6 MB of HTML at 10,000
			// posts, with its Markdown and their gzip forms).
			st.reps.Delete("page:directory")
			st.reps.Delete("md:directory")
		default:
			// A list's page (or a further page of it): its HTML and
			// Markdown, made for this path only.
			p := pagerPath(st, pg, max(m.site.Pager, 1))
			st.reps.Delete("page:" + p)
			st.reps.Delete("md:" + p)
		}
	case KindPosts:
		st.reps.Delete("posts.json")
	case KindCursorPage:
		if key, ok := issuedCursors(st)[m.value]; ok {
			st.reps.Delete(key)
		}
	case KindLLMs:
		st.reps.Delete(strings.TrimPrefix(m.route.Path, "/")) // llms.txt, llms-full.txt
	case KindSitemap:
		if m.route.Path == "/sitemap.xml" {
			st.reps.Delete("sitemap.xml")
		} else {
			st.reps.Delete("sitemap-" + m.value)
		}
	case KindFeed:
		st.reps.Delete("feed:" + m.site.Path)
	case KindFile:
		st.reps.Delete("file:" + m.site.File)
	}
}

// releasePost drops p's render and its page and Markdown answers.
func (st *state) releasePost(p *pipeline.Post) {
	for _, prefix := range []string{"page:", "md:"} {
		st.reps.Delete(prefix + postKey(p))
	}
	st.postKeys.Delete(p) // and the entries its keys kept (memoSlot)
	st.renders().results.Delete(p)
}
