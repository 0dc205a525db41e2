// Package server answers every route of the contract from the current
// snapshot.
//
// # How URLs map to resources
//
//	/                            home page (HTML; Markdown when negotiated)
//	/index.md                    the home page as Markdown
//	/api/posts.json              every published post
//	/api/posts/cursor/<c>.json   one cursor page
//	/openapi.json, /rss.xml, /llms.txt, /sitemap.xml, /healthz
//	/sdk/blog-client.js          the JavaScript client
//	/static/<file>               theme assets (fingerprinted names are immutable)
//	/_folio/events               live reload events, SSE (folio dev only; events.go)
//	/_folio/live.js              the live-reload script (folio dev only; live.go)
//
// and the site's own, at the URLs Hugo gives them (site.go; the site model
// of package pipeline):
//
//	/<page>/                     every page: a post or other regular page
//	                             (article), a section, a taxonomy, a term, a
//	                             language's home (list), and a list's further
//	                             pages /<list>/page/<n>/ (HTML; Markdown
//	                             when negotiated)
//	/<page>.md                   its Markdown twin (a post's markdownUrl)
//	/<list>/index.xml            a list's RSS feed, Hugo's path and limit
//	/<file>                      a static file, a bundle's or a section's
//	                             file, an image the content names from assets/
//	/<page>                      301 to /<page>/
//	/<alias>/                    301 to its page: aliases, /<list>/page/1/,
//	                             the default language's home
//	anything else                404
//
// These are the rows of one route table, routeRows in routes.go: each row
// is data (its path pattern, resource family, media types, CORS, whether
// Accept negotiates, the shape of its errors, its caching, whether only
// dev answers it, its OpenAPI text) plus its handler. ServeHTTP answers
// with the first row that matches; the OpenAPI document, CORS, error
// shapes and the static export's lists of paths and redirects are all
// read from the same rows, so no route can be answered by one and
// forgotten by another. The site's rows are per snapshot: they match only
// the paths the snapshot's site model has, found by its own lookups
// (pipeline.Snapshot.Route), so a change of content, permalinks or
// languages needs no new routing; the export lists their paths from the
// same model. The OpenAPI document describes them as path templates. A
// path nothing names falls to the refusal rows at the end: problem+json
// under /api/ and for .json and .md paths (with CORS where the API has
// it), else the HTML 404 page.
//
// Handlers live one file per resource family; HTTP semantics (ETags, 304,
// compression, CORS, problem bodies) are in respond.go and negotiation in
// negotiate.go. ServeHTTP answers a path with "//", "." or ".." segments
// as the clean path it names, as nginx does for the static export, rather
// than redirecting; match.go says how escaped segments match.
//
// # One snapshot per request
//
// The server holds one atomic pointer to a state: a pipeline.Snapshot, the
// theme, the route table of the snapshot's configuration, and the
// representations made from them. Each request loads it once and answers
// from that value to the end, so a response never mixes two builds. Swap
// (and SetSite, with a new theme) stores a new state; requests already
// running finish on the old one. Only the host (package host) swaps: the
// server never moves a state on by itself, so a server no host runs (the
// static export) answers at its snapshot's instant throughout.
// Representations are made on first use and memoized in the state, so
// each is built once per snapshot, never per request. Across states the
// server keeps only a record of the ETag and Last-Modified each
// representation was last sent with (modified.go), so that Last-Modified
// moves when the bytes change from one snapshot to the next, and the
// link index the last state rendered with (render.go): a state's is made
// from it (render.SiteIndex.Next), so that a save in folio dev looks
// again at the posts it changed, not at every page of the site, and the
// site's shortcodes and render hooks see the site as it now is.
//
// # Prepared answers
//
// In folio serve (PrepareAnswers), a state also keeps, by request path,
// the answers its handlers served from memoized representations, with
// every header made once by the code a request runs (prepared.go): a
// GET or HEAD of a path answered before then costs one lookup and the
// headers' copy, as a bare net/http handler's would. Negotiation, the
// encoding and the preconditions are still decided per request, and
// whatever a prepared answer cannot decide (a 406, a 412, another
// method, a path to clean) goes through the route table as above.
package server
