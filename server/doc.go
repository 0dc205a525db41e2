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
// The table is in routes.go, one function. Handlers live one file per
// resource family; HTTP semantics (ETags, 304, compression, CORS, problem
// bodies) are in respond.go and negotiation in negotiate.go. ServeHTTP
// answers a path with "//", "." or ".." segments as the clean path it
// names, as nginx does for the static export, rather than redirecting.
//
// # One snapshot per request
//
// The server holds one atomic pointer to a state: a pipeline.Snapshot and
// the representations made from it. Each request loads it once and answers
// from that value to the end, so a response never mixes two builds. Swap
// stores a new state; requests already running finish on the old one.
// Representations are made on first use and memoized in the state, so
// each is built once per snapshot, never per request. Across states the
// server keeps only a record of the ETag and Last-Modified each
// representation was last sent with (modified.go), so that Last-Modified
// moves when the bytes change from one snapshot to the next.
package server
