package server

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"
	"time"

	"folio/pipeline"
	"folio/render"
)

// The site's own routes: every page Hugo would publish (home, sections,
// taxonomies, terms, regular pages, and the lists' further pages), each
// page's Markdown twin, the lists' RSS feeds, the site's files (static
// files, bundle and section files, assets its content names), a page's
// URL without its final slash, and aliases. Their rows match only what the
// snapshot's site model publishes (pipeline.Snapshot.Route), found by its
// own lookups, so the routes follow the content with no routing work.

// lookupSitePage finds a page, or a further page of a list.
func lookupSitePage(st *state, p string) (pipeline.Route, bool) {
	r, ok := st.snap.Route(p)
	return r, ok && (r.Kind == pipeline.RoutePage || r.Kind == pipeline.RoutePager)
}

// lookupTwin finds the page whose Markdown twin p is.
func lookupTwin(st *state, p string) (pipeline.Route, bool) { return st.snap.TwinOf(p) }

// lookupSiteFeed finds a list's RSS feed.
func lookupSiteFeed(st *state, p string) (pipeline.Route, bool) {
	r, ok := st.snap.Route(p)
	return r, ok && r.Kind == pipeline.RouteFeed
}

// lookupSiteFile finds a file of the site; at a folder's URL that
// nothing else has, the folder's index.html file, as a static host
// serves the index.html of a site's static folder.
func lookupSiteFile(st *state, p string) (pipeline.Route, bool) {
	r, ok := st.snap.Route(p)
	if !ok && strings.HasSuffix(p, "/") {
		r, ok = st.snap.Route(p + "index.html")
	}
	return r, ok && r.Kind == pipeline.RouteFile
}

// lookupSlashless finds the page, or the static folder's index.html,
// that p is the URL of without its final slash: it redirects there, as
// a static host (nginx, GitHub Pages, Netlify, hugo server) redirects a
// folder's name to the folder.
func lookupSlashless(st *state, p string) (pipeline.Route, bool) {
	if strings.HasSuffix(p, "/") {
		return pipeline.Route{}, false
	}
	r, ok := lookupSitePage(st, p+"/")
	if !ok {
		r, ok = lookupSiteFile(st, p+"/")
		r.Path = p + "/"
	}
	return pipeline.Route{Path: p, Kind: pipeline.RouteAlias, Target: r.Path}, ok
}

// lookupSiteAlias finds an alias: one of a page's aliases (where Hugo
// writes them), a list's /page/1/, a language's redirect, with or
// without its final slash.
func lookupSiteAlias(st *state, p string) (pipeline.Route, bool) {
	for _, cand := range []string{p, p + "/"} {
		if r, ok := st.snap.Route(cand); ok && r.Kind == pipeline.RouteAlias {
			return r, true
		}
		if strings.HasSuffix(p, "/") {
			break
		}
	}
	return pipeline.Route{}, false
}

// sitePage answers a page of the site: a regular page as an article, the
// default language's home and the directory as folio's own, any other
// list (and every further page of one) as a list; or its Markdown when
// Accept prefers it.
func (s *Server) sitePage(w http.ResponseWriter, r *http.Request, m match) {
	st, pg, n := m.st, m.site.Page, max(m.site.Pager, 1)
	cfg := st.snap.Config()
	switch {
	case pg.Kind == pipeline.KindPage:
		m.post = pg.Post
		s.article(w, r, m)
	case n == 1 && pg == st.snap.Home(cfg.DefaultLanguage):
		s.home(w, r, m)
	case n == 1 && pg == st.snap.Directory():
		s.directory(w, r, m)
	default:
		s.negotiated(w, r, m,
			func() (*rep, error) { return s.listRep(st, pg, n) },
			func() (*rep, error) { return s.listMarkdownRep(st, pg, n) })
	}
}

// siteMarkdown answers a page's Markdown twin.
func (s *Server) siteMarkdown(w http.ResponseWriter, r *http.Request, m match) {
	st, pg, n := m.st, m.site.Page, max(m.site.Pager, 1)
	cfg := st.snap.Config()
	var rp *rep
	var err error
	switch {
	case pg.Kind == pipeline.KindPage:
		rp, err = s.markdownRep(st, pg.Post)
	case n == 1 && pg == st.snap.Home(cfg.DefaultLanguage):
		rp, err = s.homeMarkdownRep(st)
	case n == 1 && pg == st.snap.Directory():
		rp, err = s.directoryMarkdownRep(st)
	default:
		rp, err = s.listMarkdownRep(st, pg, n)
	}
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

// siteRedirect answers 301 to the page an alias (or a URL without its
// final slash) names.
func (s *Server) siteRedirect(w http.ResponseWriter, r *http.Request, m match) {
	s.moved(w, m, m.st.snap.Config().AbsURL(strings.TrimPrefix(pipeline.EscapePath(m.site.Target), "/")))
}

// pagerPath is the path of a list's nth page.
func pagerPath(st *state, pg *pipeline.Page, n int) string {
	if n <= 1 {
		return pg.Path
	}
	return st.snap.PagerPath(pg, n)
}

// listItems are what a list page's nth page shows: its regular pages
// (a taxonomy's terms) of that page, as items.
func listItems(st *state, pg *pipeline.Page, n int) []*itemView {
	size := st.snap.Config().Pagination.PagerSize
	pages := pg.Pages
	from := min((n-1)*size, len(pages))
	pages = pages[from:min(from+size, len(pages))]
	out := make([]*itemView, 0, len(pages))
	for _, q := range pages {
		out = append(out, itemOf(st, q))
	}
	return out
}

// itemOf is pg's item, made once per state: a post is an item of its
// section's list, the home page's, each of its terms' and the directory,
// each as HTML and Markdown. Items are never modified once made.
func itemOf(st *state, pg *pipeline.Page) *itemView {
	if v, ok := st.items.Load(pg); ok {
		return v.(*itemView)
	}
	v, _ := st.items.LoadOrStore(pg, newItemView(st, pg))
	return v.(*itemView)
}

// An itemView is a page in a list.
type itemView struct {
	Title, Description, URL, MarkdownURL string
	// Date is the page's date in the site's time zone, zero when it has
	// none; Count the pages of a term.
	Date  time.Time
	Count int
	Post  *postView // a post's view, for its tags and status

	// line is the item as a line of a list's Markdown (itemLine), made
	// with it: a post is listed by several pagers.
	line string
}

func newItemView(st *state, pg *pipeline.Page) *itemView {
	cfg := st.snap.Config()
	v := &itemView{Title: pg.Title, URL: cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pg.Path), "/")),
		MarkdownURL: cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pipeline.TwinPath(pg.Path)), "/"))}
	if pg.Kind == pipeline.KindTerm {
		v.Count = len(pg.Pages)
	}
	if p := pg.Post; p != nil {
		v.Description = p.Description
		if !p.Date.IsZero() {
			v.Date = p.Date.In(cfg.Location)
		}
		if pg.Kind == pipeline.KindPage {
			v.Post = newPostView(st, p)
		}
	}
	if v.Title == "" && pg.Post != nil {
		v.Title = pg.Post.Title
	}
	v.line = markdownLine(v)
	return v
}

// A pagerView is where a list's page is among its pages.
type pagerView struct {
	Number, Total int
	Prev, Next    string // absolute URLs, "" at the ends
}

// listRep is the nth page of a list page (a section, a taxonomy, a term,
// a home page other than folio's own), made once per snapshot.
func (s *Server) listRep(st *state, pg *pipeline.Page, n int) (*rep, error) {
	return st.memo("page:"+pagerPath(st, pg, n), func() (*rep, error) {
		cfg := st.snap.Config()
		d := s.newPage(st, "list")
		d.Title = pg.Title
		if pg.Kind == pipeline.KindHome && d.Title == "" {
			d.Title = cfg.Title
		}
		if pg.Post != nil {
			d.Description = pg.Post.Description
		}
		path := pagerPath(st, pg, n)
		d.Canonical = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(path), "/"))
		d.Markdown = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pipeline.TwinPath(path)), "/"))
		d.ListKind = pg.Kind
		d.Items = listItems(st, pg, n)
		if n == 1 {
			for _, sec := range pg.Sections {
				d.Sections = append(d.Sections, newItemView(st, sec))
			}
		}
		d.Pager = &pagerView{Number: n, Total: pg.Pagers}
		if n > 1 {
			d.Pager.Prev = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pagerPath(st, pg, n-1)), "/"))
		}
		if n < pg.Pagers {
			d.Pager.Next = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pagerPath(st, pg, n+1)), "/"))
		}
		if pg.Feed != "" {
			d.Feed = cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pg.Feed), "/"))
		}
		return htmlRep(st, d, listModified(st, pg))
	})
}

// listMarkdownRep is the nth page of a list as Markdown: front matter,
// then one line per page linking to its Markdown twin.
func (s *Server) listMarkdownRep(st *state, pg *pipeline.Page, n int) (*rep, error) {
	return st.memo("md:"+pagerPath(st, pg, n), func() (*rep, error) {
		cfg := st.snap.Config()
		var b strings.Builder
		if n == 1 && len(pg.Sections) > 0 {
			b.WriteString("## Sections\n\n")
			for _, sec := range pg.Sections {
				b.WriteString(itemLine(newItemView(st, sec)))
			}
			b.WriteString("\n")
		}
		items := listItems(st, pg, n)
		for _, it := range items {
			b.WriteString(itemLine(it))
		}
		if len(items) == 0 {
			b.WriteString("Nothing here yet.\n")
		}
		if n < pg.Pagers {
			next := cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pipeline.TwinPath(pagerPath(st, pg, n+1))), "/"))
			b.WriteString("\nNext page: " + next + "\n")
		}
		title := pg.Title
		if title == "" {
			title = cfg.Title
		}
		description := ""
		if pg.Post != nil {
			description = pg.Post.Description
		}
		page := cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pagerPath(st, pg, n)), "/"))
		body := render.PageDocument(title, description, page, b.String())
		return markdownOf(body, page, listModified(st, pg), cfg.Agents.Signals), nil
	})
}

// itemLine is one page of a list in Markdown: a link to its twin, its
// date and description.
func itemLine(it *itemView) string { return it.line }

// markdownLine makes itemLine's line.
func markdownLine(it *itemView) string {
	line := "- [" + linkText(it.Title) + "](" + linkURL(it.MarkdownURL) + ")"
	if !it.Date.IsZero() {
		line += " — " + it.Date.Format("2006-01-02")
	}
	if it.Count > 0 {
		line += " (" + strconv.Itoa(it.Count) + ")"
	}
	if d := mdLine(it.Description); d != "" {
		line += ": " + d
	}
	return line + "\n"
}

// listModified is when a list's content last changed: the newest of its
// pages' and its own.
func listModified(st *state, pg *pipeline.Page) time.Time {
	if len(pg.Pages) > 0 && pg.Path != "" {
		// Once per list and state, not once per pager.
		return stateValue(st, "modified:"+pg.Path, func() time.Time { return listModifiedOnce(st, pg) })
	}
	return listModifiedOnce(st, pg)
}

func listModifiedOnce(st *state, pg *pipeline.Page) time.Time {
	t := pageModified(pg)
	if t.IsZero() {
		// A list of nothing dated (a taxonomy without terms): the site's
		// newest post, so that an answer always has a date, as a file
		// of the export does.
		t = newest(st, st.snap.Posts())
	}
	return t
}

// pageModified is the newest date of a page and what it lists, through
// a taxonomy's terms to their pages.
func pageModified(pg *pipeline.Page) time.Time {
	var t time.Time
	if pg.Post != nil {
		t = modified(pg.Post)
	}
	for _, q := range pg.Pages {
		switch {
		case q.Post != nil:
			t = latest(t, modified(q.Post))
		case q.Kind == pipeline.KindTerm:
			t = latest(t, pageModified(q))
		}
	}
	return t
}

// siteFeed answers a list's RSS feed at Hugo's path, with Hugo's limit
// (services.rss.limit).
func (s *Server) siteFeed(w http.ResponseWriter, r *http.Request, m match) {
	st, pg := m.st, m.site.Page
	rp, _ := st.memo("feed:"+m.site.Path, func() (*rep, error) {
		cfg := st.snap.Config()
		posts := feedPosts(st, pg)
		sortNewest(posts)
		if n := cfg.RSSLimit; n >= 0 && n < len(posts) {
			posts = posts[:n]
		}
		title := pg.Title
		switch {
		case pg.Kind == pipeline.KindHome || title == "":
			title = cfg.Title
		default:
			title += " on " + cfg.Title
		}
		ch := channel{title: title, link: cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(pg.Path), "/")),
			description: cfg.Description, self: cfg.AbsURL(strings.TrimPrefix(pipeline.EscapePath(m.site.Path), "/"))}
		mod := newest(st, posts)
		if len(posts) == 0 {
			mod = listModified(st, pg)
		}
		return newRep("application/rss+xml; charset=utf-8", feedBody(st, ch, posts), mod), nil
	})
	s.serve(w, r, m, rp)
}

// feedPosts are the items of a list's feed, as Hugo's default RSS
// template takes them: the home page's are every regular page of its
// language, a section's its own regular pages, a term's its pages. (A
// taxonomy's are its terms, which are no posts: its feed has none.)
func feedPosts(st *state, pg *pipeline.Page) []*pipeline.Post {
	var out []*pipeline.Post
	if pg.Kind == pipeline.KindHome {
		for _, q := range st.snap.Pages() {
			if q.Kind == pipeline.KindPage && q.Lang == pg.Lang && q.Post != nil && q.Post.Build.List != "never" && q.Post.Build.List != "local" {
				out = append(out, q.Post)
			}
		}
		return out
	}
	for _, q := range pg.Pages {
		if q.Kind == pipeline.KindPage && q.Post != nil {
			out = append(out, q.Post)
		}
	}
	return out
}

// maxMemoFile is the largest site file kept in memory as a prepared
// representation; larger ones are streamed.
const maxMemoFile = maxMemoResource

// siteFile answers a file of the site from the site's folder.
func (s *Server) siteFile(w http.ResponseWriter, r *http.Request, m match) {
	st, file := m.st, m.site.File
	if m.site.Path == NotFoundPath {
		// The site's own 404 page answers there as at every unknown
		// path, with its status, as the theme's does.
		s.notFound(w, r, m)
		return
	}
	rp, err := st.memo("file:"+file, func() (*rep, error) {
		body, info, err := readSiteFile(st, file)
		if err != nil {
			return nil, err
		}
		return newRep(contentType(file), body, fileModified(st, info)), nil
	})
	switch {
	case errors.Is(err, errLarge):
		s.streamSiteFile(w, r, m)
	case errors.Is(err, fs.ErrNotExist):
		s.notFound(w, r, m)
	case err != nil:
		s.internalError(w, r, m, err)
	default:
		s.serve(w, r, m, rp)
	}
}

// siteNotFound is the site's static 404.html as the 404 page: its bytes
// as written, without the theme's Content-Security-Policy, which its
// author did not write it for.
func siteNotFound(st *state, file string) (*rep, error) {
	body, _, err := readSiteFile(st, file)
	if err != nil {
		return nil, err
	}
	return newRep(contentType(file), body, time.Time{}), nil
}

// readSiteFile reads a site file to hold in memory: errLarge when it is
// over maxMemoFile, to be streamed instead.
func readSiteFile(st *state, file string) ([]byte, fs.FileInfo, error) {
	f, info, err := openSiteFile(st, file)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	if info.Size() > maxMemoFile {
		return nil, nil, errLarge
	}
	body, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, fmt.Errorf("%s: %w", file, err)
	}
	return body, info, nil
}

func openSiteFile(st *state, file string) (fs.File, fs.FileInfo, error) {
	f, err := st.snap.FS().Open(file)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && !info.Mode().IsRegular() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// fileModified is a file's own modification time, else (in-memory
// content has none) the snapshot's instant.
func fileModified(st *state, info fs.FileInfo) time.Time {
	if t := info.ModTime(); !t.IsZero() {
		return t
	}
	return st.snap.Now()
}

// streamSiteFile serves a large file of the site straight from its
// folder, with Range support (see streamResource).
func (s *Server) streamSiteFile(w http.ResponseWriter, r *http.Request, m match) {
	st, file := m.st, m.site.File
	f, info, err := openSiteFile(st, file)
	if err != nil {
		s.notFound(w, r, m)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		s.internalError(w, r, m, fmt.Errorf("%s: not seekable", file))
		return
	}
	mod := fileModified(st, info)
	h := w.Header()
	h.Set("Content-Type", contentType(file))
	h.Set("ETag", `"`+strconv.FormatInt(info.Size(), 36)+"-"+strconv.FormatInt(mod.UnixNano(), 36)+`"`)
	h.Set("Cache-Control", s.cacheControl(st))
	http.ServeContent(w, r, file, mod, rs)
}

// The export's lists of the site's paths, escaped as the site writes
// them.

func sitePaths(st *state, kinds ...pipeline.RouteKind) []string {
	var out []string
	for r := range st.snap.EachRoute() {
		for _, k := range kinds {
			if r.Kind == k {
				out = append(out, pipeline.EscapePath(r.Path))
			}
		}
	}
	return out
}

// pagePaths are each page's path followed by its twin's: the exporter
// writes neighbours together, so a post is rendered once for both and
// released after (Release). The twin row lists them again, which the
// export's list takes once.
func pagePaths(st *state) []string {
	var out []string
	for r := range st.snap.EachRoute() {
		if r.Kind == pipeline.RoutePage || r.Kind == pipeline.RoutePager {
			out = append(out, pipeline.EscapePath(r.Path), pipeline.EscapePath(pipeline.TwinPath(r.Path)))
		}
	}
	return out
}

func twinPaths(st *state) []string {
	var out []string
	for r := range st.snap.EachRoute() {
		if r.Kind == pipeline.RoutePage || r.Kind == pipeline.RoutePager {
			out = append(out, pipeline.EscapePath(pipeline.TwinPath(r.Path)))
		}
	}
	return out
}

func feedPaths(st *state) []string { return sitePaths(st, pipeline.RouteFeed) }
func filePaths(st *state) []string { return sitePaths(st, pipeline.RouteFile) }

// slashlessPaths are the pages' URLs without their final slash, and the
// static folders' (those whose index.html a folder's URL answers).
func slashlessPaths(st *state) []string {
	var out []string
	for r := range st.snap.EachRoute() {
		switch {
		case (r.Kind == pipeline.RoutePage || r.Kind == pipeline.RoutePager) && r.Path != "/" && strings.HasSuffix(r.Path, "/"):
			out = append(out, pipeline.EscapePath(strings.TrimSuffix(r.Path, "/")))
		case r.Kind == pipeline.RouteFile && path.Base(r.Path) == "index.html":
			dir := strings.TrimSuffix(r.Path, "index.html")
			if dir == "/" {
				continue
			}
			if _, page := lookupSitePage(st, dir); page {
				continue // the page's own, above
			}
			if f, ok := lookupSiteFile(st, dir); ok && f.Path == r.Path {
				out = append(out, pipeline.EscapePath(strings.TrimSuffix(dir, "/")))
			}
		}
	}
	return out
}

// sortNewest orders posts as the contract does: newest first.
func sortNewest(posts []*pipeline.Post) { slices.SortFunc(posts, pipeline.Compare) }
