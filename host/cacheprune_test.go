package host

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestTidyCaches: a start marks its own cache used and removes the caches
// (and interrupted writes) no start used for 30 days, and nothing else in
// a shared folder: not other files, not folders, not recent caches.
func TestTidyCaches(t *testing.T) {
	dir := t.TempDir()
	now := time.Now()
	const own = "serve-0123456789abcdef.folio-cache"
	files := map[string]time.Duration{ // name: age
		own:                                  90 * 24 * time.Hour,
		"serve-1111111111111111.folio-cache": 31 * 24 * time.Hour,
		"dev-2222222222222222.folio-cache":   40 * 24 * time.Hour,
		"dev-3333333333333333.folio-cache.tmp123": 40 * 24 * time.Hour,
		"serve-4444444444444444.folio-cache":      29 * 24 * time.Hour,
		"notes-5555555555555555.folio-cache":      90 * 24 * time.Hour,
		"serve-XYZ4567890abcdef.folio-cache":      90 * 24 * time.Hour,
		"serve-6666666666666666.folio-cache.bak":  90 * 24 * time.Hour,
		"other.txt":                               90 * 24 * time.Hour,
	}
	for name, age := range files {
		p := filepath.Join(dir, name)
		must(t, os.WriteFile(p, []byte("x"), 0o600))
		must(t, os.Chtimes(p, now.Add(-age), now.Add(-age)))
	}
	folder := filepath.Join(dir, "serve-7777777777777777.folio-cache")
	must(t, os.Mkdir(folder, 0o700))
	must(t, os.Chtimes(folder, now.Add(-90*24*time.Hour), now.Add(-90*24*time.Hour)))

	tidyCaches(filepath.Join(dir, own), now)

	gone := map[string]bool{
		"serve-1111111111111111.folio-cache":      true,
		"dev-2222222222222222.folio-cache":        true,
		"dev-3333333333333333.folio-cache.tmp123": true,
	}
	for name := range files {
		_, err := os.Lstat(filepath.Join(dir, name))
		if gone[name] != os.IsNotExist(err) {
			t.Errorf("%s: removed %v, want %v", name, os.IsNotExist(err), gone[name])
		}
	}
	if _, err := os.Lstat(folder); err != nil {
		t.Errorf("a folder named as a cache was removed: %v", err)
	}
	info, err := os.Lstat(filepath.Join(dir, own))
	must(t, err)
	if now.Sub(info.ModTime()) > time.Minute {
		t.Errorf("own cache not marked used: modified %v ago", now.Sub(info.ModTime()))
	}
}
