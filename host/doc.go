// Package host owns the live snapshot of every command: it reads the
// config, builds the snapshot, makes the one server that answers from it,
// and applies every change until the command stops.
//
// # One start, one loop, one apply path
//
// Load is how every command starts (check and build stop there, and ask
// the loaded host for Problems, RenderAll and Export, export.go; check is
// the start without the running): the config read (ReadConfig, the one
// place a config is read: found in the site's folder, Spec.Source, as
// Hugo finds it, or the file --config names), the watcher started when
// the Spec asks for one (before the content is read, so nothing changed
// meanwhile is missed), the first snapshot built (from the parse cache
// Spec.Cache names, read while the content is walked: cache.go), the
// theme tried, and one server.Server made for the life of the process.
// serve's and dev's Run saves that cache in the background a second
// after the site is served.
//
// Run is one goroutine with one select: the command's end, a reload
// signal (SIGHUP: everything read again), the watcher's deliveries, and
// one timer set after every commit to the snapshot's next scheduled
// publish or expiry. Each trigger only says what changed (a change); apply
// does the rest, the same way for all of them:
//
//  1. the config read again, when asked (a reload, one of the config
//     files or config folders saved: every file merged is watched);
//  2. the folders watched again, when the config moved one or one was
//     replaced (the new watcher starts before the content is read);
//  3. the next snapshot made from the current one: only the files that
//     changed are read again, a post that breaks keeps its last good
//     version, and a replaced site or content folder, or a config that
//     reads the content another way, is read afresh (next). The snapshot
//     reads the site's folder (content, static, assets and their mounts);
//     the watcher sees all of it but the output and cache folders;
//  4. the theme loaded and tried again, when asked or moved; one that
//     fails keeps the theme in use;
//  5. one commit: the problems found outside the content (config, theme)
//     reported first, then the snapshot (and theme) swapped into the same
//     server in one store. A section that moved brings its routes with it
//     (the server's route table is per snapshot), and what the server
//     keeps across snapshots, the Last-Modified record and the browsers'
//     live-reload streams, carries on.
//
// A step that fails keeps what is served and says why: a log line, and in
// dev the overlay. Every commit logs one line ("reloaded" when the config
// was read again, else "updated") and each problem the new snapshot has
// that the old one had not.
//
// # Commands differ by data
//
// A Spec says what a command wants: which config and content, the address
// the base URL comes from, drafts, the author's server, a theme that falls
// back to the embedded one, and what to watch. Spec.ForServe and
// Spec.ForDev are serve's and dev's; check and build use the shared part
// alone. No code here asks which command runs.
//
// # Who owns what
//
// The host owns the watcher, the problems found outside the content and
// every change; the server (package server) owns the current state and
// what it remembers across states; pipeline snapshots are values no one
// changes once built. Only Run's goroutine writes; requests only load the
// server's current state.
package host
