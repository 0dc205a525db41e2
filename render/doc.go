// Package render turns the body of a post (pipeline.Post.Body: Markdown
// text, shortcode calls and the <!--more--> divider) into the article's
// HTML, its summary, and the body of its Markdown alternate. It is pure:
// no HTTP, no disk, no clock. A Renderer is built once per site
// configuration and is safe for concurrent use; the server renders each
// post on first use and caches the Result per snapshot, the static export
// renders them all.
//
// # One parse, two outputs
//
// Render writes the body into one Markdown source in which every
// shortcode, and the divider, is replaced by a placeholder ("FOLIOSC"
// then the call's index then "E"; the prefix is lengthened until it
// occurs nowhere in the post, so an author cannot forge one). Goldmark
// parses that source once, configured as Hugo is by the site's markup
// settings (Options.Markup, Hugo's defaults when nil: tables,
// strikethrough, linkify, task lists, footnotes, definition lists,
// typographer, {#id} heading attributes; hard wraps, emoji, block
// attributes, the other heading-id styles, and Hugo's extras, CJK and
// passthrough extensions when configured), raw HTML omitted unless
// Options.Unsafe. Then:
//
//   - The HTML is goldmark's, with folio's node renderers where Hugo's
//     output differs or folio needs more: a placeholder in text becomes
//     the shortcode's HTML, and a paragraph holding nothing but one
//     placeholder gives way to the call's output, as Hugo's does; code
//     blocks are highlighted with chroma into CSS classes (HighlightCSS);
//     headings get Hugo's ids, which keep letters of every script
//     ("Écriture 日本語" → "écriture-日本語"), with -1, -2 for repeats.
//     Placeholders left where no text node carries them (inside code,
//     raw HTML) are replaced at the end by the shortcode's HTML, as
//     Hugo replaces them; inside a tag (an attribute) by its Markdown,
//     escaped: shortcode syntax never reaches a reader. The site's render
//     hooks render links, images, headings, code blocks, block quotes,
//     tables and passthrough elements when it has them (hooks.go), and
//     goat diagrams are drawn (goat.go). Passthrough elements (math)
//     are written as the author typed them (passthrough.go).
//   - The Markdown alternate is the same source with edits spliced in at
//     offsets the parser reports: placeholders become the shortcodes'
//     Markdown (see Shortcodes), link and image destinations become
//     absolute, and
//     <!--more--> goes. Everything else is the author's text byte for
//     byte, so the alternate reads as the post was written. Goldmark
//     keeps only where a link starts, so its link parser is wrapped to
//     note where each link's text closes and where the link ends.
//
// The summary is the HTML before the divider: everything before it when
// it stands alone at the top level, else up to the end of the top-level
// block that holds it.
//
// # Links
//
// Every URL in the output is absolute, as the contract requires of every
// body folio serves (and so a summary shown on another page still points
// at the right place): a relative link or image resolves against the
// post's URL, <baseURL><section>/<slug>/, where a page bundle's files
// are served. Fragment-only links ("#notes") stay as they are in HTML.
//
// A link names a post when its path ends in ".md" (a content file,
// relative to the post's file, or to the content root when it starts
// with "/"; a Markdown file of the post's own bundle is a resource
// instead), or when it is on the site (relative, or absolute on the base
// URL's host) and resolves to <section>/<slug>/ or <section>/<slug>.md
// (or <section>/<slug> when such a post exists). Such links are rewritten
// to the post's canonical URL. A link or image into another post's
// bundle (<section>/<slug>/<file>) is kept only while that post is
// visible. ref and relref follow Hugo: a content path relative to the
// post's folder, then to the section and the content root, with or
// without ".md" or "/index.md", else the last path element as a slug;
// both give the absolute URL. A link or ref to a post that is not
// visible, or to no post, is rendered as its text alone (an image as its
// alt text, a bare ref as nothing) and reported as an Issue with its
// line. A ref to no page is Hugo's REF_NOT_FOUND: an error, or a
// warning under refLinksErrorLevel "warning", and the ref gives
// refLinksNotFoundURL when the site sets one (Options). With a
// SiteIndex, a link to a URL the site serves (any page at its
// permalink, any file) is left as an ordinary URL. The Resolver answers
// the lookups; Result.Refs records them, so a cached Result can be kept
// while Result.Current says the answers still hold.
//
// # The site, as templates see it
//
// ForSnapshot gives a SiteIndex: every page of a Hugo site's model by
// its Hugo path and name, at its URL. Made afresh it costs tens of
// milliseconds at 10,000 pages; SiteIndex.Next makes the index of a
// snapshot patched from another from that one's, replacing the entries
// of the posts that changed in layered maps (internal/layered), which
// is what folio dev pays on a save (BenchmarkSiteIndex). Through it the
// site's shortcodes and render hooks see the site as Hugo's templates
// do (site.go, sitepage.go, sitelists.go, taxonomy.go): site.GetPage and
// .Page.GetPage (any page of the model, one not rendered too),
// .Site.Pages, .RegularPages, .Sections, .Home and .Taxonomies; a page's
// .Kind, .Section, .Type, dates, .Params, .Pages, .RegularPages,
// .Sections, .Parent, .GetTerms and .Data; lists with Hugo's ByTitle,
// ByDate, Reverse… and where, sort and first over them. The lists are
// in Hugo's default order (weight, date, link title by the language's
// collation, path), list pages dated by their newest page, made once per
// snapshot when a template first asks (about 30 ms of CPU for
// .Site.RegularPages at 10,000 posts) and shared by its renderings; a
// result that read them holds for that snapshot only (Ref.Site). What
// needs another page rendered (.Content, .Summary of another page) is
// not offered: a template asking for it fails with a problem naming its
// file and line. The oracle tests build fixture sites using all of this
// with Hugo 0.165 and compare (siteindex_test.go).
//
// # Shortcodes
//
// Shortcodes render as Hugo 0.165 renders them (expand.go says how
// calls nest, when output is HTML and when Markdown, and where a
// paragraph gives way to a call). Hugo's built-ins are written in Go
// (builtins.go, embeds.go), each writing the bytes Hugo's own template
// writes, which the oracle tests check against Hugo itself: details,
// figure (a src naming a bundle file is its URL), highlight with its
// options, param, ref and relref (refs.go: Hugo's lookup, relative,
// cross-section through a PageResolver, anchors, output formats; both
// give absolute URLs, as every URL folio writes is). Embeds of third
// parties (youtube, vimeo, x, instagram) are links, which the CSP
// allows and which make no request until followed; gist, tweet and
// twitter, removed from Hugo, are links with a warning. A call with no
// template anywhere keeps its inner text, rendered as Markdown, with a
// warning. Each call also has its Markdown for the twin: figure →
// ![alt](src "title") and an italic caption line, highlight → a fenced
// block, details → the summary in bold then the content, ref → the URL,
// an embed → a link.
//
// Render's Issues are what rendering finds: links and refs to hidden or
// missing pages, a call missing its argument (errors, as Hugo stops
// there), and calls Hugo would refuse that folio renders anyway
// (warnings).
//
// # Robustness
//
// Render never fails: input is whatever an author saved. Goldmark is
// quadratic, or very hungry for memory, on some shapes no editor
// produces (runs of "*a", thousands of nested "[" or ">", lines of "](",
// long runs of link definitions); guard.go and linkify.go bound each, and
// a paragraph past the bounds is shown as plain text with an Issue. A
// post gets 64 KiB of highlighted code (chroma is slow); the rest is
// plain. A panic inside chroma falls back to plain code; any other panic
// is recovered into the escaped text of the post and an Issue (the fuzz
// test treats that Issue as a failure).
package render
