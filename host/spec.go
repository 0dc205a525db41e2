package host

import (
	"log/slog"
	"net"
	"os"
	"time"

	"folio/pipeline"
	"folio/watch"
)

// A Spec is what a command asks of its host. The commands differ only by
// their Spec, never by code of their own: check and build Load and never
// Run; serve runs with reload signals and, with --watch, the content
// folder watched; dev runs with everything watched, drafts if asked, the
// author's server and a theme that falls back to the embedded one.
type Spec struct {
	// Source is the site's folder (--source): where its config is found
	// (hugo.*, config.*, config/) and what its mounts are relative to;
	// "" is the working folder.
	Source string
	// ConfigFile is the config file (--config) read instead of the ones
	// found in Source.
	ConfigFile string
	// Content and BaseURL override the config's contentDir and baseURL
	// (--content, --base-url).
	Content, BaseURL string

	// Addr is the address the site is served on (bound by serve and dev,
	// only named by build; nil for check). Without a base URL from the
	// config or BaseURL, pages link to http://Addr/.
	Addr net.Addr
	// AddrIsBase makes Addr the base URL even when the config sets one:
	// pages served by dev must link to dev. BaseURL still wins.
	AddrIsBase bool

	// Drafts shows drafts, future and expired posts (dev --drafts).
	Drafts bool
	// Dev is the author's server (server.Options.Dev): live reload, no
	// caching, answers to its own Host names only, Hosts among them.
	Dev   bool
	Hosts []string
	// ThemeFallback starts with the embedded theme, the error shown as a
	// problem, when the configured one does not load; without it that is
	// a start-up error. (Once running, a theme that breaks always keeps
	// the last good one.)
	ThemeFallback bool

	// Watch is what Run watches and applies as it changes.
	Watch Watch
	// WatchOptions tune the watcher; its Logger defaults to Log.
	WatchOptions watch.Options

	// Log receives the host's lines (each commit, each problem, each
	// failure) and the server's; nil discards them.
	Log *slog.Logger
	// Started is when the process started: the Last-Modified of assets.
	Started time.Time
	// At is the instant the first snapshot is built at, which decides
	// the posts due; zero for the time Load runs. folio build sets it
	// (tests of the build move it instead of waiting for a date).
	At time.Time
	// Cache is the file of the parse cache (pipeline.Cache) the first
	// snapshot is built with; "" for none. folio build's is beside its
	// output, and Export writes it; serve's and dev's is in a cache
	// folder (CacheFile), and Run writes it (SaveCache).
	Cache string
	// MapCache maps the parse cache's file into memory rather than read
	// it (pipeline.CacheFile.Map): for a process that ends with its
	// build (folio build), never one that serves.
	MapCache bool
	// CacheWhole reports whether the parse cache's file, as the system
	// describes it when it is opened, is one a build read before and
	// found whole, so that its CRC-32C need not be computed again
	// (folio build: export.Ahead.CacheWhole, from the previous build's
	// record); nil for never.
	CacheWhole func(os.FileInfo) bool
	// SaveCache makes Run write the cache of the first snapshot to Cache
	// in the background once it is served, when it differs from the one
	// read (serve and dev).
	SaveCache bool
	// Swapped, when set, sees every snapshot the host makes current, in
	// order, just before it is (tests count them).
	Swapped func(*pipeline.Snapshot)
}

// Watch is what a running host watches. The zero value watches nothing;
// serve --watch watches the content, dev all three.
type Watch struct {
	// Content is the content folder: its files are read again as they
	// change, and the folder read afresh when it is replaced.
	Content bool
	// Site is the site folder, when the config sets one: the theme is
	// loaded again as it changes.
	Site bool
	// Config is the config file, seen created, replaced or deleted too:
	// everything is read again from it.
	Config bool
}

func (w Watch) any() bool { return w.Content || w.Site || w.Config }

// ForServe is base as folio serve runs it: links to the bound address
// unless the config or --base-url names another, reload signals, and the
// content folder watched when watch (--watch).
func (base Spec) ForServe(watch bool) Spec {
	base.Watch = Watch{Content: watch}
	return base
}

// ForDev is base as folio dev runs it: pages link to dev itself (unless
// --base-url), the author's server answering its own names and hosts,
// drafts when drafts (--drafts), a theme that falls back to the embedded
// one, and everything watched.
func (base Spec) ForDev(drafts bool, hosts []string) Spec {
	base.AddrIsBase, base.Dev, base.Hosts, base.Drafts, base.ThemeFallback = true, true, hosts, drafts, true
	base.Watch = Watch{Content: true, Site: true, Config: true}
	return base
}
