// Package server answers every route of the contract from the current
// snapshot.
//
// # How URLs map to resources
//
//	/                            home page (HTML)
//	/<section>/                  blog directory (HTML; Markdown when negotiated)
//	/<section>.md                the directory as Markdown
//	/<section>/<slug>/           article page (HTML; Markdown when negotiated)
//	/<section>/<slug>.md         the article as Markdown
//	/<section>/<slug>/<file>     a page-bundle resource
//	/<section>/<slug>            301 to /<section>/<slug>/
//	/api/posts.json              every published post
//	/api/posts/cursor/<c>.json   one cursor page
//	/openapi.json, /rss.xml, /llms.txt, /sitemap.xml, /healthz
//	/sdk/blog-client.js          the JavaScript client
//	/static/<file>               theme assets (fingerprinted names are immutable)
//	/_folio/events               live reload events, SSE (folio dev only; events.go)
//	/_folio/live.js              the live-reload script (folio dev only; live.go)
//	anything else                a post alias (301), or 404
//
// These are the rows of one route table, routeRows in routes.go: each row
// is data (its path pattern, resource family, media types, CORS, whether
// Accept negotiates, the shape of its errors, its caching, whether only
// dev answers it, its OpenAPI text) plus its handler. ServeHTTP answers
// with the first row that matches; the OpenAPI document, CORS, error
// shapes and the static export's lists of paths and redirects are all
// read from the same rows, so no route can be answered by one and
// forgotten by another. The rows under the section, and aliases, are made
// per snapshot: they match only what the snapshot has, found by its own
// lookups, so a change of content or even of section needs no new
// routing. A path nothing names falls to the refusal rows at the end:
// problem+json under /api/ and for .json and .md paths (with CORS where
// the API has it), else the HTML 404 page.
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
// moves when the bytes change from one snapshot to the next.
package server
