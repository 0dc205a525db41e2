package server

import (
	"net/url"
	"path"
	"slices"
	"strings"

	"folio/export"
	"folio/pipeline"
)

// NotFoundPath is the path whose answer is the site's 404 page. No route
// claims it, so the server answers it with the page every unknown path
// gets; the static export stores that answer under the same name, which is
// where nginx's error_page finds it.
const NotFoundPath = "/404.html"

// ExportPaths lists every URL path (escaped, as the site emits them) that
// the static export holds for the current snapshot: the pages, each
// article's Markdown and bundle files, the API with every cursor page a
// walk issues, the feeds and indexes, the JavaScript client, the theme's
// assets, and NotFoundPath last. /healthz is left out: a file cannot tell
// whether a snapshot is loaded.
//
// The list comes from the snapshot, not from a crawl, so a post no page
// links to is still exported. An alias that happens to equal NotFoundPath
// is the only way the last entry answers something other than 404; the
// exporter checks statuses.
func (s *Server) ExportPaths() []string {
	st := s.load()
	snap := st.snap
	cfg := snap.Config()
	sec := cfg.Section
	paths := []string{"/", "/" + sec + "/", "/" + sec + ".md"}
	for _, p := range snap.Posts() {
		page := "/" + p.Path(sec)
		paths = append(paths, page, "/"+p.MarkdownPath(sec))
		for _, name := range p.Resources {
			paths = append(paths, page+escapePath(name))
		}
	}
	paths = append(paths, "/api/posts.json")
	for _, c := range snap.Cursors(cfg.API.PageSize) {
		paths = append(paths, "/api/posts/cursor/"+c+".json")
	}
	paths = append(paths, "/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/sdk/blog-client.js")
	paths = append(paths, st.theme.exportPaths()...)
	return append(paths, NotFoundPath)
}

// exportPaths lists the URL paths of the theme's static assets, each
// under its plain and its fingerprinted name, as the server answers both.
func (t *theme) exportPaths() []string {
	out := make([]string, 0, len(t.assets))
	for name := range t.assets {
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

// ExportMalformed names the paths the server refuses with 400 by their
// shape alone, for a static host to refuse alike: cursor pages whose token
// is outside pipeline.CursorPattern (those inside it but never issued are
// 404 in an export, which holds exactly the issued cursors).
var ExportMalformed = &export.Malformed{
	Prefix: "/api/posts/cursor/",
	Suffix: ".json",
	Valid:  strings.TrimSuffix(strings.TrimPrefix(pipeline.CursorPattern, "^"), "$"),
	Probe:  "/api/posts/cursor/!.json",
}

// ExportRedirects lists the paths that may answer 301 for the current
// snapshot, for a static host to redirect the same way: the section
// without its slash, each post's page without its slash, and each alias
// with and without a trailing slash. An alias that a route claims first
// answers that route instead; the exporter keeps only real 301s.
func (s *Server) ExportRedirects() []string {
	snap := s.load().snap
	sec := snap.Config().Section
	out := []string{"/" + sec}
	for _, p := range snap.Posts() {
		out = append(out, "/"+strings.TrimSuffix(p.Path(sec), "/"))
	}
	seen := map[string]bool{}
	for _, p := range snap.Posts() {
		for _, a := range p.Aliases {
			a = strings.Trim(a, "/")
			if a == "" || seen[a] {
				continue
			}
			seen[a] = true
			out = append(out, "/"+escapePath(a), "/"+escapePath(a)+"/")
		}
	}
	return out
}

// Release drops what the current snapshot prepared for urlPath when it
// belongs to a post: for its page or Markdown URL, the post's render and
// its page and Markdown answers; for one of its bundle files, that file's
// answer. They are made again, byte for byte, if asked for. The static
// export calls it once a post's routes are written, so that a build holds
// a few posts' answers at a time rather than the whole site's. Other
// paths are left alone: the lists and feeds are asked for once.
func (s *Server) Release(urlPath string) {
	st := s.current.Load()
	rest, ok := strings.CutPrefix(urlPath, "/"+st.snap.Config().Section+"/")
	if !ok {
		return
	}
	if rest, err := url.PathUnescape(rest); err == nil {
		switch p, kind, file := postRouteOf(st.snap, rest); kind {
		case routeArticle, routeMarkdown:
			for _, prefix := range []string{"page:", "md:", "vary:md:"} {
				st.reps.Delete(prefix + postKey(p))
			}
			st.renders().results.Delete(p)
		case routeResource:
			st.reps.Delete(resourceKey(p, file))
		}
	}
}

// The exporter releases what the server prepared (see Release).
var _ export.Releaser = (*Server)(nil)
