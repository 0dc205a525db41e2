package server

import (
	"fmt"
	"net/http"
	"slices"
	"strings"
	"sync"

	"folio/pipeline"
)

// A Route is one row of the route table: a path, or a family of paths, and
// everything about how it is answered, as data. The dispatch (ServeHTTP),
// the OpenAPI document, CORS, the shape of errors and the static export's
// lists of paths and redirects are all read from the rows, so a route
// cannot be answered by one and forgotten by another.
//
// Rows are tried in table order and the first that matches answers. A row
// with a lookup is made per snapshot: it matches only a path that names
// something the snapshot has (a published post, one of its bundle files,
// an alias), found by the snapshot's own indexes, so a site of any size
// costs no routing work when it changes. A path nothing names falls to
// the refusal rows at the end, which say by its shape how it is refused.
type Route struct {
	// Path is the row's pattern as the OpenAPI document writes it: literal
	// text, {name} for one segment
	// (or the part of one before a suffix, as in {cursor}.json) and
	// {name...} for the rest of the path.
	Path string
	// Kind is the resource family that answers the row.
	Kind Kind
	// Types are the media types of a 200 answer: two when Accept chooses
	// between them (Negotiates), none for redirects and refusals.
	Types      []string
	Negotiates bool
	// CORS says which answers carry Access-Control-Allow-Origin: * and
	// answer a CORS preflight. folio dev sends none (devguard.go).
	CORS CORS
	// Errors is the shape of a 404 on the row, and of any other error.
	Errors Errors
	// Cache is the caching policy of its answers.
	Cache Cache
	// Link reports a Link header: the canonical page or the Markdown
	// alternate.
	Link bool
	// Dev rows are answered by folio dev only.
	Dev bool
	// Syntax, on a row with a wildcard, is the regular expression (without
	// anchors) the value must match; any other value is refused with 400
	// by its shape alone, which a static host can do too.
	Syntax string
	// Export is what the static export does with the row's paths.
	Export Export
	// Doc describes the row in the OpenAPI document; nil leaves it out.
	Doc *Doc

	serve func(s *Server, w http.ResponseWriter, r *http.Request, m match)
	// lookup, on a row made per snapshot, resolves the path's value (all
	// of it after the row's literal prefix) in st: the post it names and
	// the part left for the handler (a bundle file's name), or false when
	// the row does not match.
	lookup func(st *state, value string) (*pipeline.Post, string, bool)
	// site, on a row of the site's own, finds the path (unescaped, with
	// its leading slash) in st's site model, or false.
	site func(st *state, path string) (pipeline.Route, bool)
	// list is every path of a row with a wildcard that the export holds
	// for st. A literal row's one path is its Path.
	list func(st *state) []string

	pat pattern
}

// A Kind is a resource family.
type Kind string

const (
	KindHome       Kind = "home"
	KindPage       Kind = "page" // a page of the site: article, list, term
	KindMarkdown   Kind = "markdown"
	KindFile       Kind = "file"     // a file of the site
	KindRedirect   Kind = "redirect" // 301 to a page's canonical URL
	KindAlias      Kind = "alias"    // 301 from a post's alias
	KindPosts      Kind = "posts"
	KindCursorPage Kind = "cursor-page"
	KindOpenAPI    Kind = "openapi"
	KindFeed       Kind = "feed"
	KindLLMs       Kind = "llms"
	KindSitemap    Kind = "sitemap"
	KindHealth     Kind = "health"
	KindSDK        Kind = "sdk"
	KindAsset      Kind = "asset"
	KindLiveEvents Kind = "live-events"
	KindLiveScript Kind = "live-script"
	KindAPIPage    Kind = "api-page"
	KindRobots     Kind = "robots"
	KindCatalog    Kind = "api-catalog"
	KindSkills     Kind = "agent-skills"
	KindNotFound   Kind = "not-found" // a refusal row: the path names nothing
)

// CORS is which answers of a row carry Access-Control-Allow-Origin: *.
type CORS int

const (
	CORSNone     CORS = iota
	CORSAll           // every answer, errors and preflights included
	CORSMarkdown      // the Markdown answers of a negotiating row only
)

// Errors is how a row refuses: an RFC 9457 problem (API clients) or the
// site's HTML 404 page (people).
type Errors int

const (
	ErrorsPage Errors = iota
	ErrorsProblem
)

// Cache is a row's caching policy.
type Cache int

const (
	CacheSite        Cache = iota // public, max-age from the config (no-cache under dev)
	CacheNoStore                  // never stored: the health check
	CacheFingerprint              // immutable for a year under a fingerprinted name, else CacheSite
)

// Export is what the static export does with a row's paths.
type Export int

const (
	ExportNone     Export = iota
	ExportFile            // each path is written as a file
	ExportRedirect        // each path's 301 is recorded for the static host
)

// A Doc is a row's OpenAPI description.
type Doc struct {
	ID, Summary, Description string
	// Params are the path parameters, by component name.
	Params []string
	// Schema is the body's JSON Schema (a string when nil).
	Schema obj
	// Errors are the error response components besides 304.
	Errors []string
	// Moved, on a redirect's row, is where its 301 sends: it answers
	// nothing else.
	Moved string
}

// Media types of the rows.
const (
	mediaTypeHTML     = "text/html"
	mediaTypeMarkdown = "text/markdown"
	mediaTypeJSON     = "application/json"
)

var (
	typesPage      = []string{mediaTypeHTML}
	typesNegotiate = []string{mediaTypeHTML, mediaTypeMarkdown}
	typesMarkdown  = []string{mediaTypeMarkdown}
	typesJSON      = []string{mediaTypeJSON}
)

// routeRows is the route table.
func routeRows() []Route {
	return []Route{
		{Path: "/", Kind: KindHome, Types: typesNegotiate, Negotiates: true, CORS: CORSMarkdown, Link: true, Export: ExportFile, serve: (*Server).home,
			Doc: &Doc{ID: "Home", Summary: "Home page", Errors: []string{"NotAcceptable"},
				Description: "HTML, or the site and its newest posts as Markdown (the bytes of /index.md) when Accept prefers text/markdown."}},
		{Path: homeTwinPath, Kind: KindMarkdown, Types: typesMarkdown, CORS: CORSAll, Errors: ErrorsProblem, Link: true, Export: ExportFile, serve: (*Server).homeMarkdown,
			Doc: &Doc{ID: "HomeMarkdown", Summary: "The home page as Markdown: the site, its newest posts and where agents find the rest"}},
		{Path: "/api/posts.json", Kind: KindPosts, Types: typesJSON, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile, serve: (*Server).postsJSON,
			Doc: &Doc{ID: "Posts", Summary: "Every published post, newest first", Schema: schemaRef("PostCollection")}},
		{Path: "/api/posts/cursor/{cursor}.json", Kind: KindCursorPage, Types: typesJSON, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile,
			Syntax: strings.TrimSuffix(strings.TrimPrefix(pipeline.CursorPattern, "^"), "$"), serve: (*Server).cursorPage, list: cursorPaths,
			Doc: &Doc{ID: "CursorPage", Summary: "One page of posts", Params: []string{"cursor"}, Schema: schemaRef("CursorPage"), Errors: []string{"BadCursor"},
				Description: "Start with cursor 0 and follow nextCursor until it is null; the pages together hold exactly the items of /api/posts.json, in order. Posts added or removed during a walk never make one that stayed be skipped or repeated."}},
		{Path: "/api/", Kind: KindAPIPage, Types: typesNegotiate, Negotiates: true, CORS: CORSMarkdown, Link: true, Export: ExportFile, serve: (*Server).apiPage,
			Doc: &Doc{ID: "APIPage", Summary: "This API for people: every endpoint, what it returns and a curl line to try it", Errors: []string{"NotAcceptable"},
				Description: "HTML, or the same as Markdown (the bytes of /api.md) when Accept prefers text/markdown."}},
		{Path: "/api.md", Kind: KindMarkdown, Types: typesMarkdown, CORS: CORSAll, Errors: ErrorsProblem, Link: true, Export: ExportFile, serve: (*Server).apiMarkdown,
			Doc: &Doc{ID: "APIPageMarkdown", Summary: "The API page as Markdown"}},
		{Path: "/api", Kind: KindRedirect, Export: ExportRedirect, serve: (*Server).redirectAPI},
		{Path: "/openapi.json", Kind: KindOpenAPI, Types: typesJSON, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile, serve: (*Server).openAPI,
			Doc: &Doc{ID: "OpenAPI", Summary: "This document", Schema: obj{"type": "object"}}},
		{Path: "/rss.xml", Kind: KindFeed, Types: []string{"application/rss+xml"}, CORS: CORSAll, Export: ExportFile, serve: (*Server).rss,
			Doc: &Doc{ID: "Feed", Summary: "RSS 2.0 feed of the newest posts"}},
		{Path: "/llms.txt", Kind: KindLLMs, Types: []string{"text/plain"}, CORS: CORSAll, Export: ExportFile, serve: (*Server).llmsTxt,
			Doc: &Doc{ID: "LLMsTxt", Summary: "llms.txt: the site and a link to every post's Markdown"}},
		{Path: "/llms-full.txt", Kind: KindLLMs, Types: []string{"text/plain"}, CORS: CORSAll, Export: ExportFile, serve: (*Server).llmsFull,
			Doc: &Doc{ID: "LLMsFullTxt", Summary: "llms.txt's header, then every post's Markdown, newest first, up to a size cap"}},
		{Path: "/robots.txt", Kind: KindRobots, Types: []string{"text/plain"}, CORS: CORSAll, Export: ExportFile, serve: (*Server).robots,
			Doc: &Doc{ID: "Robots", Summary: "robots.txt (RFC 9309): rules for every crawler and the major AI crawlers, Content Signals, the sitemap"}},
		{Path: "/.well-known/api-catalog", Kind: KindCatalog, Types: []string{"application/linkset+json"}, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile, serve: (*Server).apiCatalog,
			Doc: &Doc{ID: "APICatalog", Summary: "API catalog (RFC 9727): a linkset naming the OpenAPI description, the API page, the feed and llms.txt",
				Schema: obj{"type": "object", "required": []string{"linkset"}}}},
		{Path: "/.well-known/agent-skills/index.json", Kind: KindSkills, Types: typesJSON, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile, serve: (*Server).skillIndex,
			Doc: &Doc{ID: "AgentSkills", Summary: "Agent Skills Discovery 0.2.0 index: the search-blog-posts skill with the SHA-256 of its bytes",
				Schema: obj{"type": "object", "required": []string{"$schema", "skills"}}}},
		{Path: "/" + skillPath, Kind: KindSkills, Types: typesMarkdown, CORS: CORSAll, Errors: ErrorsProblem, Export: ExportFile, serve: (*Server).skill,
			Doc: &Doc{ID: "AgentSkill", Summary: "SKILL.md of search-blog-posts: how an agent lists, pages through, searches and reads this blog"}},
		{Path: "/sitemap.xml", Kind: KindSitemap, Types: []string{"application/xml"}, Export: ExportFile, serve: (*Server).sitemap,
			Doc: &Doc{ID: "Sitemap", Summary: "Sitemap of every HTML page",
				Description: "Past the protocol's 50,000 URLs (or 50 MiB), a sitemap index naming /sitemap-1.xml, /sitemap-2.xml, … which hold them."}},
		{Path: "/sitemap-{n}.xml", Kind: KindSitemap, Types: []string{"application/xml"}, Export: ExportFile, serve: (*Server).sitemapPart, list: sitemapPartPaths,
			Doc: &Doc{ID: "SitemapPart", Summary: "One sitemap of the sitemap index, when /sitemap.xml is one", Params: []string{"n"}, Errors: []string{"NotFoundPage"}}},
		// Not exported: a file cannot tell whether a snapshot is loaded.
		{Path: "/healthz", Kind: KindHealth, Types: []string{"text/plain"}, Cache: CacheNoStore, serve: (*Server).healthz,
			Doc: &Doc{ID: "Health", Summary: "200 ok while a snapshot is loaded (always, once the server has started)", Schema: obj{"const": "ok"}, Errors: []string{"Unavailable"}}},
		{Path: "/sdk/blog-client.js", Kind: KindSDK, Types: []string{"text/javascript"}, CORS: CORSAll, Export: ExportFile, serve: (*Server).sdk,
			Doc: &Doc{ID: "SDK", Summary: "The dependency-free JavaScript client (ES module)"}},
		{Path: "/static/{asset...}", Kind: KindAsset, Types: fileTypes(), Cache: CacheFingerprint, Export: ExportFile,
			serve: (*Server).static, lookup: lookupAsset, list: assetPaths,
			Doc: &Doc{ID: "Asset", Summary: "Theme assets (fingerprinted names are immutable)", Params: []string{"asset"}, Schema: obj{}, Errors: []string{"NotFoundPage"}}},
		{Path: "/_folio/events", Kind: KindLiveEvents, Types: []string{"text/event-stream"}, Dev: true, serve: (*Server).liveEvents},
		{Path: livePath, Kind: KindLiveScript, Types: []string{"text/javascript"}, Dev: true, serve: (*Server).liveScript},

		// The site's own pages, files, twins and feeds (site.go), made per
		// snapshot from its site model: the URLs Hugo would publish. A
		// site's file comes first, so that its static robots.txt or
		// page.md is served as it is.
		{Path: "/{path...}", Kind: KindFile, Types: fileTypes(), Export: ExportFile,
			serve: (*Server).siteFile, site: lookupSiteFile, list: filePaths,
			Doc: &Doc{ID: "SiteFile", Summary: "A file of the site: its static files, a page's bundle files, a section's files, images its content names from assets/", Params: []string{"path"}, Schema: obj{}, Errors: []string{"NotFoundSite"}}},
		{Path: "/{path...}", Kind: KindPage, Types: typesNegotiate, Negotiates: true, CORS: CORSMarkdown, Link: true, Export: ExportFile,
			serve: (*Server).sitePage, site: lookupSitePage, list: pagePaths,
			Doc: &Doc{ID: "Page", Summary: "A page of the site at the URL Hugo gives it: an article or other page, a section, a taxonomy, a term, or a further page of a list (…/page/2/)",
				Params: []string{"path"}, Errors: []string{"NotAcceptable", "NotFoundPage"},
				Description: "HTML, or the page as Markdown (the same bytes as its twin: the URL without its final slash, plus .md) when Accept prefers text/markdown."}},
		{Path: "/{path...}.md", Kind: KindMarkdown, Types: typesMarkdown, CORS: CORSAll, Errors: ErrorsProblem, Link: true, Export: ExportFile,
			serve: (*Server).siteMarkdown, site: lookupTwin, list: twinPaths,
			Doc: &Doc{ID: "PageMarkdown", Summary: "A page as Markdown (a post's markdownUrl)", Params: []string{"path"}, Errors: []string{"NotFound"},
				Description: "YAML front matter (title, description, url, and for an article date and tags), then # Title, then the page: an article with shortcodes expanded and relative links made absolute, a list as links to its pages' Markdown."}},
		{Path: "/{path...}", Kind: KindFeed, Types: []string{"application/rss+xml"}, CORS: CORSAll, Export: ExportFile,
			serve: (*Server).siteFeed, site: lookupSiteFeed, list: feedPaths,
			Doc: &Doc{ID: "SiteFeed", Summary: "RSS 2.0 feed of a list (the home page, a section, a taxonomy, a term) at Hugo's path (…/index.xml), with Hugo's limit", Params: []string{"path"}, Errors: []string{"NotFoundSite"}}},
		{Path: "/{path...}", Kind: KindRedirect, Export: ExportRedirect, serve: (*Server).siteRedirect, site: lookupSlashless, list: slashlessPaths},

		// Lowest of the pages: an alias never hides a route.
		{Path: "/{alias...}", Kind: KindAlias, Export: ExportRedirect, serve: (*Server).siteRedirect, site: lookupSiteAlias, list: aliasPaths},

		// Refusals: a path that names nothing. API clients get a problem,
		// people the 404 page.
		{Path: "/api/{rest...}", Kind: KindNotFound, CORS: CORSAll, Errors: ErrorsProblem, serve: (*Server).notFound},
		{Path: "/.well-known/{rest...}", Kind: KindNotFound, CORS: CORSAll, Errors: ErrorsProblem, serve: (*Server).notFound},
		{Path: "/{path...}.md", Kind: KindNotFound, CORS: CORSAll, Errors: ErrorsProblem, serve: (*Server).notFound},
		{Path: "/{path...}.json", Kind: KindNotFound, Errors: ErrorsProblem, serve: (*Server).notFound},
		{Path: "/{path...}", Kind: KindNotFound, serve: (*Server).notFound},
	}
}

// A table is the route table, ready to match.
type table struct {
	rows  []Route
	exact map[string]*Route // literal rows by path
	rest  []*Route          // the others, in table order
}

// newTable makes the rows, leaving out dev rows unless dev. Two rows
// that would claim the same paths are an error (see collision).
func newTable(dev bool) (*table, error) {
	t := &table{exact: map[string]*Route{}}
	for _, rt := range routeRows() {
		if rt.Dev && !dev {
			continue
		}
		rt.pat = compilePattern(rt.Path, rt.lookup != nil || rt.site != nil)
		t.rows = append(t.rows, rt)
	}
	for i := range t.rows {
		rt := &t.rows[i]
		if rt.pat.wild == wildNone {
			t.exact[rt.Path] = rt
		} else {
			t.rest = append(t.rest, rt)
		}
	}
	if err := t.collision(); err != nil {
		return nil, fmt.Errorf("route table: %w", err)
	}
	return t, nil
}

// collision finds two rows that claim the same paths, which table order
// would settle silently: two equal literal paths, a literal under a
// wildcard row's prefix, or two wildcard rows, one's prefix under the
// other's. The site's rows (each resolved by the site model, after
// folio's own), the alias and the refusal rows are meant to come after
// everything.
func (t *table) collision() error {
	claims := func(rt *Route) bool { return rt.Kind != KindAlias && rt.Kind != KindNotFound && rt.site == nil }
	for i := range t.rows {
		a := &t.rows[i]
		for j := i + 1; j < len(t.rows); j++ {
			b := &t.rows[j]
			if !claims(a) || !claims(b) {
				continue
			}
			if overlap(a.pat, b.pat) {
				return fmt.Errorf("%s is also %s", a.Path, b.Path)
			}
		}
	}
	return nil
}

func overlap(a, b pattern) bool {
	switch {
	case a.wild == wildNone && b.wild == wildNone:
		return a.prefix == b.prefix
	case a.wild == wildNone:
		return strings.HasPrefix(a.prefix, b.prefix)
	case b.wild == wildNone:
		return strings.HasPrefix(b.prefix, a.prefix)
	}
	return strings.HasPrefix(a.prefix, b.prefix) || strings.HasPrefix(b.prefix, a.prefix)
}

// A match is a request's row in one state and what the row's path names.
type match struct {
	st    *state
	route *Route
	post  *pipeline.Post // a post's rows: the post
	value string         // the wildcard's value: a cursor, an asset, a bundle file
	site  pipeline.Route // the site's rows: what the site model has there
	// keep is the path under which the answer may be kept as a prepared
	// answer (prepared.go), "" when it may not; media is what a
	// negotiating row's handler chose.
	keep  string
	media media
}

// find returns the row that answers the routing path rp in st. The last
// row matches every path; a target that is not a path ("*") gets it too.
func (t *table) find(st *state, rp routingPath) match {
	if rt, ok := t.exact[rp.path]; ok && !elsewhere(st, rt) {
		return match{st: st, route: rt}
	}
	for _, rt := range t.rest {
		v, ok := rt.pat.match(rp)
		if !ok {
			continue
		}
		if (rt.lookup != nil || rt.site != nil) && rp.escaped && strings.Contains(v, "%2F") {
			// A lookup splits its value at slashes (a post's slug from its
			// bundle file, a site path's folders): an escaped one is no
			// separator, and no slug, bundle file, asset or file of the
			// site has one in a name.
			continue
		}
		v = rp.unescape(v)
		m := match{st: st, route: rt, value: v}
		if rt.lookup != nil {
			if m.post, m.value, ok = rt.lookup(st, v); !ok {
				continue
			}
		}
		if rt.site != nil {
			if m.site, ok = rt.site(st, sitePath(rt.pat, rp, v)); !ok {
				continue
			}
		}
		return m
	}
	return match{st: st, route: t.rest[len(t.rest)-1]}
}

// elsewhere reports whether rt is a row of the home page that does not
// answer in st, where the home page lives in the default language's
// folder (homeMoved): / when the site's own static index.html answers
// there (rootFile: Hugo writes no page at /, rootEmpty), and
// /index.md, the twin of no page (/ is a redirect or nothing; the home's
// twin is /en.md). The site's rows answer them then, as Hugo publishes
// them: the static/index.html at /, and a static/index.md or a 404 at
// /index.md.
func elsewhere(st *state, rt *Route) bool {
	switch {
	case rt.Kind == KindHome:
		return rootFile(st)
	case rt.Path == homeTwinPath:
		return homeMoved(st)
	}
	return false
}

// sitePath is the path a site row looks up: its prefix and the
// wildcard's value v. When rp spells them as they are (nothing unescaped,
// no suffix), that is the start of rp's own path, which costs no
// allocation.
func sitePath(p pattern, rp routingPath, v string) string {
	if !rp.escaped && p.suffix == "" && len(p.prefix)+len(v) <= len(rp.path) && rp.path[len(p.prefix):len(p.prefix)+len(v)] == v {
		return rp.path[:len(p.prefix)+len(v)]
	}
	return p.prefix + v
}

// Literals are the literal text before and after the row's wildcard.
func (rt *Route) Literals() (prefix, suffix string) { return rt.pat.prefix, rt.pat.suffix }

// Routes returns the route table: dev rows left out unless the server is
// folio dev's. The
// rows are shared; callers must not modify them.
func (s *Server) Routes() []Route { return s.current.Load().routes.rows }

// lookupAsset matches the theme's assets only: an unknown name is refused
// by the shape of its path, as any path that names nothing.
func lookupAsset(st *state, v string) (*pipeline.Post, string, bool) {
	_, ok := st.theme.assets[v]
	return nil, v, ok
}

// fileTypes are the media types a file row may answer with: the fixed
// extension table's and application/octet-stream.
func fileTypes() []string {
	types := []string{"application/octet-stream"}
	for _, t := range contentTypes {
		if !slices.Contains(types, t) {
			types = append(types, t)
		}
	}
	slices.Sort(types)
	return types
}

// OwnPath reports whether p, a URL path as the site model spells it (not
// escaped), is one that folio answers with its own route in serve,
// build and the exports whatever file a site has there: a row of the
// route table above the site's rows that no lookup decides (/openapi.json,
// /rss.xml, /api/posts.json, a cursor page, /sitemap.xml, /index.md, …),
// or the index.html of such a folder (/api/index.html). Not the rows that
// serve the site's own file where it has one (robots.txt, llms.txt,
// llms-full.txt), nor the home page, nor folio dev's own: the site model
// warns at a static file p names (pipeline.Options.Own), which Hugo
// publishes and folio does not.
func OwnPath(p string) bool {
	if dir, ok := strings.CutSuffix(p, "/index.html"); ok && dir != "" && ownPath(dir+"/") {
		return true
	}
	return ownPath(p)
}

func ownPath(p string) bool {
	for _, rt := range ownRows() {
		if _, ok := rt.pat.match(routingPath{path: p}); ok {
			return true
		}
	}
	return false
}

// ownRows are the rows OwnPath matches.
var ownRows = sync.OnceValue(func() []Route {
	var out []Route
	for _, rt := range routeRows() {
		if rt.site != nil {
			break // the site's rows, and the aliases and refusals under them
		}
		switch {
		case rt.Dev, rt.lookup != nil, rt.Kind == KindHome, rt.Kind == KindRobots, rt.Kind == KindLLMs:
			continue
		}
		rt.pat = compilePattern(rt.Path, false)
		out = append(out, rt)
	}
	return out
})
