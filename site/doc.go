// Package site holds the default theme: templates, static assets and the
// JavaScript client, embedded into the binary. A config siteDir replaces it
// with a folder of the same layout (folio dev watches that folder).
//
// # Layout
//
//	templates/base.html       the layout every page shares; it calls
//	                          {{template "main" .}} and {{block "head" .}}
//	templates/home.html       /              each defines "main" (and may
//	templates/directory.html  /<section>/    define "head")
//	templates/article.html    /<section>/<slug>/, every regular page
//	templates/list.html       every other list: a section, a taxonomy, a
//	                          term, a language's home, and their further
//	                          pages (…/page/2/); a theme without it gets
//	                          the embedded one
//	templates/404.html        every unknown page
//	static/…                  /static/…, each file also under a
//	                          fingerprinted name ("style.0123456789.css")
//	                          that is cached as immutable
//	sdk/blog-client.js        /sdk/blog-client.js, the JavaScript client
//
// The server parses the templates once per theme (html/template) and
// renders each page once per snapshot; an error in a template names its
// file and line. Every template gets the same data (server.pageData):
// .Kind, .Site (the configuration: .Site.Title, .Site.Description,
// .Site.Language, .Site.Author, …), .Title and .Description for the head,
// .Canonical, .Markdown (the Markdown alternate, empty when the page has
// none), .Dev, .Post on the article page and .Posts on the lists (each
// with .Title, .Description, .Category, .Tags, .Date, .Updated, .URL,
// .MarkdownURL, .Status and, on the article, .Content), and .Total; on
// a list, .Items (each with .Title, .URL, .MarkdownURL, .Date,
// .Description, .Count for a term's pages, .Post for a post), .Sections,
// .Pager (.Number, .Total, .Prev, .Next) and .Feed; on every page .Menu
// (the site's main menu: .Name, .URL). A post's .TagLinks and
// .CategoryURL link its terms to their pages. The
// methods .URL "path", .Asset "file" and .Directory give absolute URLs:
// every URL a page contains is built from baseURL. The functions isoDate
// and date format times. {{$.Cached "name" .}} writes what
// {{template "name" .}} would, made once per snapshot for each value and
// reused by every page that asks, as Hugo's partialCached: list.html
// makes each item ("list-item") once although the section's, the home
// page's and each term's pagers all list the post; what name writes may
// depend on the value alone. {{$.Cached "name" . key}} makes it once per
// key instead: base.html writes the links every page of a kind shares
// ("site-head", "site-brand", "site-nav", "site-footer") once per site
// and kind, keyed by .Site.
//
// Pages are served with a Content-Security-Policy that allows only the
// site's own scripts and styles: a theme may not use inline <script>,
// <style> or style attributes. Highlighted code uses chroma's CSS classes;
// their colours are static/syntax.css, made in the site's
// markup.highlight.style (folio's light and dark pair when it chose
// none) unless the theme has its own. Under folio dev the layout's
// {{if .Dev}}…{{end}} hook links /_folio/live.js, the live-reload script.
//
// # The directory page and the client
//
// static/directory.js imports searchPosts and createClient from the
// client (../sdk/blog-client.js), so the search box, the WebMCP tool
// search_blog_posts it registers, and any other user of the client apply
// one rule. The client's node tests and the browser tests live in test/,
// outside the embedded folders.
package site
