// Package pipeline turns a site folder into an immutable Snapshot: the
// site's pages as Hugo 0.165 publishes them (every page, list, taxonomy
// and term, at Hugo's URLs, with their feeds, pagers, aliases and files),
// the published posts in order, their lookups and the problems found on
// the way. It knows nothing of HTTP; the server gets everything, files
// included, through a Snapshot.
//
// # The configuration
//
// LoadSite finds and merges a site's configuration as Hugo does (hugo.* or
// config.*, config/_default/ and the environment's folder, per-key files)
// and decodes it along key structs that mirror Hugo's (configkeys_hugo.go):
// folio's own settings, and Hugo's in SiteConfig. ParseConfig reads folio's
// own config.toml, whose content folder is then the FS root.
//
// # From a file to a snapshot
//
// Build walks the content mounts (content/, a language's contentDir, module
// mounts) of an fs.FS, so tests hand it an fstest.MapFS and folio an
// os.Root. Each content file is a unit, keyed by its path inside the FS:
//
//   - a page, "blog/hello.md", whose slug is the file name, or a
//     section's "blog/_index.md" (the home page's at the root);
//   - a leaf bundle's index, "blog/trip/index.md" (index.fr.md for a
//     translation), whose slug is the folder name and whose other files
//     (at any depth, hidden files and editors' temp files left out) are
//     its Resources, published beside it; its content files (Markdown,
//     Org, AsciiDoc…, a nested index.md too) are its ContentFiles, Hugo's
//     page resources: neither pages nor published.
//
// Folders without an index are walked into, so pages may be grouped by
// year; their other files belong to the section above them. A file's
// language is its name's (post.fr.md, pic.fr.png), else its mount's, else
// the default. A bundle's or section's file is published once, beside
// its own language's page, and not at all when that page does not exist.
//
// The units are read in parallel. For each file, frontmatter.go runs Hugo's
// pageparser, which finds the YAML (---), TOML (+++) or JSON ({…}) front
// matter after an optional BOM and splits the body into text, shortcode
// calls and the <!--more--> divider. The front matter is decoded with
// Hugo's own decoders into a map whose keys are lower-cased, and fields.go
// turns that map into typed Post fields: Hugo's aliases (publishDate,
// pubdate, published; lastmod, modified; expiryDate, unpublishdate), dates
// without an offset read in the configured time zone, the slug, category
// and description fallbacks. That pair of files is the only code that sees
// the untyped map.
//
// A file that fails (bad syntax, a value of the wrong type, no date,
// invalid UTF-8, an unclosed shortcode) becomes a Problem with its path and
// line instead of a post; it never stops the build. (Shortcodes are
// render's: it knows the site's templates, and it reports a call whose
// template is nowhere.)
//
// # The site
//
// Assembling the snapshot makes the site model (site.go) from the visible
// pages, per language, as Hugo does: the home page and the sections (each
// top-level folder, each deeper folder with an _index), every page's URL
// (pagepath.go: url and slug front matter, permalinks and their tokens,
// uglyURLs, Hugo's path sanitising and lower-casing, the language prefix),
// the lists (a section's pages, the home page's main-section pages, each
// taxonomy's terms and each term's pages, made from front matter) with
// their pagers and RSS feeds, aliases, bundle and section files, static
// files and the assets that content's images name. Routes and Route list
// and look up every path it publishes. A save of one page patches the
// model (sitepatch.go): the page's routes and the lists it is in are made
// anew, everything else is shared.
//
// The posts (the API's) are the regular pages of the main sections, in
// the default language: mainSections, else folio's section, else the
// section with the most pages.
//
// Assembling the snapshot for an instant now keeps the visible posts
// (Published: not a draft, publish date not after now, expiry not before
// now; every post under Options.Drafts), settles duplicate URLs (the first
// file by path keeps the URL, the others are problems naming it), sorts the
// posts (publish date descending, then slug, then file), and builds the
// slug and alias lookups. The site model is made on every core
// (siteorder.go): its pages in parallel, the order of every list from one
// sort. It also notes the next instant at which a scheduled post appears
// or an expiring one goes: At(now) past that instant assembles again from
// the same units, without reading anything.
//
// # From a change to the next snapshot
//
// A Snapshot is never modified. Update takes the paths that changed
// (files or folders, created, edited or removed, as a watcher reports
// them) and returns a new Snapshot: it maps each path to the units it
// affects (the file itself; the whole bundle for anything inside one; every
// unit below a folder), reads only those, and shares every other unit, so
// an unchanged Post is the same pointer in both snapshots. A unit whose
// bytes and resource list hash as before is shared as well.
//
// When a post that was good fails after an edit, the unit keeps its last
// good Post beside the new Problem, so the site goes on serving it while
// folio dev shows the error; fixing the file clears the problem.
//
// # The parse cache
//
// Options.Cache holds the posts an earlier build parsed (cache.go): a file
// whose bytes hash as the cached one's, or whose stamp (size, times,
// inode) says it was not written since, is taken from it instead of
// parsed, and the snapshot encodes the next cache (EncodeCache). Its key, given by
// the caller, is everything else a parse depends on; a file with a problem
// or a warning is never cached. folio build keeps it beside its output,
// serve and dev in a cache folder (host/cache.go); Options.CacheFunc lets
// the caller read it while the content is walked. A build with an empty
// cache (a first start) takes each file's stamp from its read, lists
// folders without a stat of each entry (DirTypesFS), and hashes the files
// only when the cache is written.
//
// # Cursors
//
// Page and Cursors cut the ordered posts into keyset pages. A token encodes
// the (publish date, slug) of the last post of a page, so it depends on
// nothing else, survives restarts and new posts, and stays within
// CursorPattern for any slug length (long slugs are cut and followed by a
// hash). A cut token does not name its position exactly once its post is
// gone, so the process remembers the whole slug behind every cut token it
// issued (cursor_memory.go, shared by all snapshots); cursor.go says what
// happens to a cut token the process never issued.
package pipeline
