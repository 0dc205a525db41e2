// Package reliability holds folio's end-to-end reliability and security
// tests (issue 7); it has no code of its own. RELIABILITY.md at the root
// of the repository lists each guarantee and the test that proves it.
//
// The tests drive folio the way it runs in production: the server as
// folio serve builds it (pipeline.Build, then server.New without Dev),
// answering in process for the crawls and on a loopback TCP listener for
// the soak; and the folio binary itself, built once per test run, where
// the real http.Server limits, os.OpenRoot content folder, signals,
// watcher and file writes matter (raw requests, slow clients, symlinks,
// faults, folio build on a full disk).
//
// # The leak fixture
//
// site_test.go describes one site with every kind of unpublished post
// (draft, scheduled, expired; single file and bundle; a draft whose slug
// collides with a published post; drafts linked from a published post by
// a relative link and a ref shortcode). Each unpublished post carries
// sentinel tokens (title, body text, slug, tags, alias, resource names and
// contents) that must appear in no answer and no exported file. The same
// site minus its unpublished files is the oracle: every answer of the
// full site must be byte for byte the answer of the public-only one, so
// an unpublished post is not merely hidden but unobservable.
//
// Every test binds 127.0.0.1 only, bounds its loops, and kills the
// processes it starts.
package reliability
