package main

import (
	"flag"
	"os"
	"path/filepath"
	"strings"

	"folio/host"
)

// serve and dev start from a parse cache (host.CacheFile): the posts
// parsed by the previous start, taken again for every file that did not
// change since, so a large site answers in a fraction of the time a parse
// of every file takes. It is kept in a cache folder: --cache-dir, else
// $CACHE_DIRECTORY (the folder systemd makes for a service with
// CacheDirectory=), else the user's cache folder's folio/
// (os.UserCacheDir: $XDG_CACHE_HOME or ~/.cache on Linux). Without any
// (no home) or with --no-cache there is none, and that is no error.

func cacheFlags(fs *flag.FlagSet, o *options) {
	fs.StringVar(&o.cacheDir, "cache-dir", "", "the folder of the parse cache the next start reads (default $CACHE_DIRECTORY,\nelse the user's cache folder's folio/)")
	fs.BoolVar(&o.noCache, "no-cache", false, "parse every file at start and keep no parse cache")
}

// cacheFile is the parse cache file of the command for spec, "" for none.
func cacheFile(o *options, spec host.Spec) string {
	if o.noCache {
		return ""
	}
	dir := o.cacheDir
	if dir == "" {
		dir = defaultCacheDir()
	}
	if dir == "" {
		return ""
	}
	return host.CacheFile(dir, o.command, spec)
}

// defaultCacheDir is $CACHE_DIRECTORY (the first, when systemd names
// several), else the user's cache folder's folio/, "" when there is none.
func defaultCacheDir() string {
	if d, _, _ := strings.Cut(os.Getenv("CACHE_DIRECTORY"), ":"); d != "" {
		return d
	}
	if d, err := os.UserCacheDir(); err == nil {
		return filepath.Join(d, "folio")
	}
	return ""
}
