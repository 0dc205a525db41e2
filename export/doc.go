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
// A static folder's index.html is the file of its folder's URL, /x/; the
// server answers its own URL, /x/index.html, with it too, and so do the
// nginx config and the Worker (Options.Indexes).
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
// # Over the previous output
//
// An export records what it wrote in a manifest beside the output
// (manifest.go), with its folders' status-change times. The next export
// over it asks only for the paths whose fingerprint changed
// (Options.Fingerprint), writes only the answers whose bytes changed, and
// then moves those into the output and removes what is gone, file by
// file, listing only the folders whose time moved (incremental.go): the
// same files, byte for byte, as an export into an empty folder. The
// record can be read, and the output's files and folders looked at,
// while the caller still makes the site (ReadAhead, ahead.go); Stage
// takes that only when the record is still the file it was.
//
// # nginx
//
// Nginx writes a configuration for the http context: a server block with
// root at the output folder that adds the headers the server sends
// (Content-Type from the server's fixed table, Cache-Control, CORS, Link,
// Content-Security-Policy, Vary, and the server's own ETag and
// Last-Modified: nginx's validators are off), serves the .gz twins
// (with the server's ETag of its gzip body, the plain one's with -gz, a
// rule Nginx checks of every twin before it writes a line),
// answers redirects, 405 and OPTIONS like the server, and refuses a path
// that names nothing by the server's refusal rows (the problem or the 404
// page, CORS or not), learnt from the route table (NginxOptions.Refusals)
// rather than written here. A small njs script (folio.js, written beside
// the config) does what a file cannot, each with the server's own rule
// written again in JavaScript: negotiating HTML against Markdown;
// evaluating a request's preconditions in RFC 9110's order (the
// server's conditional, or Go's ServeContent with its ranges for the large
// bundle files the server streams) and answering 304, 412 and 416 itself;
// cleaning a path as the server does. Per-path values (headers,
// redirects, which pages negotiate, which files take ranges) are read
// from the recorded answers into nginx maps, so the config cannot drift
// from what the server sent.
//
// Two nginx behaviours stand in the way and are stepped around. Its own
// precondition filter (ngx_http_not_modified_filter_module) acts on every
// 200 with its own rules (If-Unmodified-Since before If-Match, "*" only
// alone, an unreadable date refused): a file njs has let through is
// served with status 299, which the filter passes by, and made 200 again
// by njs before the status line is written. And nginx refuses a request
// line whose path climbs above the root (/../x) before it reads any
// header (ngx_http_request.c): error_page 400 hands it to njs, which
// answers what serve answers for the cleaned path, without the headers.
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
