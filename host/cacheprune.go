package host

import (
	"os"
	"path/filepath"
	"strings"
	"time"
)

// cacheUnused is how long a parse cache in a cache folder may go unused
// before the start of any site removes it. Each site served or previewed
// leaves one file there (CacheFile), about as large as its Markdown; a
// folder a user ran folio dev in once, or a site moved to another path,
// would otherwise keep its file for ever.
const cacheUnused = 30 * 24 * time.Hour

// tidyCaches marks the cache file name as used now and removes, in its
// folder, the parse caches (and the temporary files of their writes) that
// no start has used for cacheUnused. Only regular files named as
// CacheFile names them are touched: the folder may be shared (a user's
// cache folder, $CACHE_DIRECTORY). Errors are left: a cache folder that
// cannot be tidied is still a cache folder.
func tidyCaches(name string, now time.Time) {
	if _, err := os.Lstat(name); err == nil {
		os.Chtimes(name, now, now)
	}
	entries, err := os.ReadDir(filepath.Dir(name))
	if err != nil {
		return
	}
	for _, e := range entries {
		n := e.Name()
		if !isCacheName(n) || n == filepath.Base(name) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err == nil && now.Sub(info.ModTime()) > cacheUnused {
			os.Remove(filepath.Join(filepath.Dir(name), n))
		}
	}
}

// isCacheName reports whether n is a file name CacheFile makes
// ("serve-<16 hex>.folio-cache", "dev-…"), or a temporary file of its
// write (the same followed by ".tmp" and CreateTemp's digits).
func isCacheName(n string) bool {
	command, rest, ok := strings.Cut(n, "-")
	if !ok || command != "serve" && command != "dev" || len(rest) < 16 {
		return false
	}
	for _, c := range rest[:16] {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	rest = rest[16:]
	return rest == ".folio-cache" || strings.HasPrefix(rest, ".folio-cache.tmp")
}
