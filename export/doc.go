// Package export writes a folio site as static files, and the nginx
// configuration or the Cloudflare Workers project that serves them the
// way folio serve would.
//
// # Same bytes by construction
//
// Nothing here renders a page. Write asks the server's own handler for each
// path, in process, exactly as a client would (once plainly and once with
// Accept-Encoding: gzip), and stores what it answered: the body as the
// file, the gzip body as its .gz twin, the Last-Modified as the file's
// modification time. A page in the export is therefore the server's
// answer, not a second implementation of it.
//
// # Layout
//
//	/x/                        x/index.html
//	/blog/x.md                 blog/x.md
//	/api/posts/cursor/T.json   api/posts/cursor/T.json
//	/404.html (the 404 page)   404.html
//	any other path             the same name, percent-decoded
//
// Each file over 1 KiB that the server compresses gets a .gz twin holding
// the server's own gzip body; files the server sends as they are (images,
// small bodies) get none, so nginx's gzip_static answers exactly as the
// server does.
//
// # Never half a site
//
// The files are written into a new folder beside the output, which is
// swapped in with one rename (an atomic exchange where the system has
// one). A failed export removes its folder and leaves the previous output
// as it was.
//
// # nginx
//
// Nginx writes a configuration for the http context: a server block with
// root at the output folder that adds the headers the server sends
// (Content-Type from the server's fixed table, Cache-Control, CORS, Link,
// Content-Security-Policy, Vary), serves the .gz twins, answers redirects,
// 404 (problem+json on API paths), 405 and OPTIONS like the server, offers
// byte ranges only for the files the server streams (one range at a time), and
// negotiates HTML against Markdown with a small njs function (folio.js,
// written beside the config) that is the server's negotiation rule written
// again in JavaScript. Per-path values (Link headers, redirects, which
// pages negotiate) are read from the recorded answers into nginx maps, so
// the config cannot drift from what the server sent.
//
// # Cloudflare Workers
//
// Cloudflare (cloudflare.go) writes a Workers project around an export
// made without .gz twins (Cloudflare compresses as each client asks):
// wrangler.jsonc, whose keys folio owns (main, compatibility_date, rules,
// assets) are rewritten in place and the author's kept, comments and all
// (wrangler.go); worker/folio.js, the Worker, the same file for every
// site (worker.js, embedded); and worker/site.json, its table, made from
// the same recorded answers as the nginx config (cloudflare_data.go):
// every path the server answers, keyed as the server's rows match a
// request (routingKey), with the file that holds its body, the headers
// it sent, whether it negotiates and where its Markdown is; the 404
// page; the server's refusal rows; the recorded problems, 405, 406 and
// OPTIONS. The data reaches the Worker as a JSON text module, parsed
// once; no program text is made from content.
//
// The Worker runs first on every path (every answer has headers only it
// knows, serve's ETag among them) and, per request, cleans the path as
// serve does, looks it up, reads Accept, and fetches at most the one file
// its table names through the ASSETS binding, never the path as asked:
// /404.html, worker/ and anything not in the table are 404. The project
// is staged with the export and put in place with it, or not at all; a
// site over a Workers plan's limits (files, bytes per file, the Worker's
// size, the memory its table takes) is refused before anything moves.
//
// # Case
//
// The server matches paths with case; nginx's maps do not (keyer).
// The config answers a path only when it is written exactly as a route or
// redirect, and Write refuses routes whose files differ only in case
// (FoldCase): a file system that ignores case would hold them as one.
package export
