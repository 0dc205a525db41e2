package export

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestPruneByFolderTimes: a build over its previous output lists only
// the folders whose status changed since the record (or too soon before
// it), and still removes every stray: in a folder nothing else changed,
// a folder of strays, a stray added at once after a build.
func TestPruneByFolderTimes(t *testing.T) {
	if _, ok := dirChanged(t.TempDir()); !ok {
		t.Skip("no folder status-change times here: every folder is listed")
	}
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 100 * time.Millisecond
	var listed []string
	defer func(f func(string) ([]os.DirEntry, error)) { listFolder = f }(listFolder)
	out := filepath.Join(t.TempDir(), "public")
	// out itself changes at every build here: fakeSite answers /broken
	// without an ETag, so its file is written each time. The others are
	// counted.
	listFolder = func(name string) ([]os.DirEntry, error) {
		if name != out {
			rel, _ := filepath.Rel(out, name)
			listed = append(listed, filepath.ToSlash(rel))
		}
		return os.ReadDir(name)
	}
	build := func(step string) *Site {
		t.Helper()
		listed = nil
		site, err := Write(out, fakeSite{}, fakePaths, fakeOptions)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		return site
	}
	settle := func() { time.Sleep(2 * racyWindow) }
	stray := func(name string) string {
		t.Helper()
		p := filepath.Join(out, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("stray"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	gone := func(step string, names ...string) {
		t.Helper()
		for _, p := range names {
			if _, err := os.Lstat(p); err == nil {
				t.Errorf("%s: %s is still there", step, p)
			}
		}
	}

	build("cold")
	settle()
	if site := build("first update"); len(listed) != 3 || !site.Updated {
		t.Errorf("first update (no folder times recorded): listed %q, want all 3 folders", listed)
	}
	settle()
	build("nothing changed")
	if len(listed) != 0 {
		t.Errorf("nothing changed: listed %q, want none", listed)
	}

	settle()
	a, b := stray("blog/café/stray.txt"), stray("api/strays/deep/x.txt")
	site := build("strays added")
	gone("strays added", a, b, filepath.Join(out, "api", "strays"))
	if site.Removed != 2 || len(listed) != 2 {
		t.Errorf("strays added: %d removed, listed %q; want 2 and blog/café, api", site.Removed, listed)
	}

	// At once after a build: the folders it changed are listed again.
	c := stray("blog/café/again.txt")
	build("a stray at once")
	gone("a stray at once", c)

	settle()
	build("settled")
	settle()
	build("nothing changed again")
	if len(listed) != 0 {
		t.Errorf("nothing changed again: listed %q, want none", listed)
	}
	if runtime.GOOS == "linux" {
		// touch cannot put a folder's status-change time back.
		d := stray("blog/x.txt")
		old := time.Now().Add(-time.Hour)
		os.Chtimes(filepath.Dir(d), old, old)
		build("a stray, the folder's time put back")
		gone("a stray, the folder's time put back", d)
	}
}

// TestPruneGzipGone: over the previous build's own paths, a route whose
// answer no longer has a gzip twin loses its .gz file, in a folder that
// is not listed for strays.
func TestPruneGzipGone(t *testing.T) {
	if _, ok := dirChanged(t.TempDir()); !ok {
		t.Skip("no folder status-change times here: every folder is listed")
	}
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 100 * time.Millisecond
	out := filepath.Join(t.TempDir(), "public")
	paths := append(slices.Clone(fakePaths), "/blog/p1.md")
	gz := filepath.Join(out, "blog", "p1.md.gz")
	for i, big := range []bool{true, true, false} {
		if _, err := Write(out, fakeSite{bigTwins: big}, paths, fakeOptions); err != nil {
			t.Fatal(err)
		}
		if _, err := os.Lstat(gz); (err == nil) != big {
			t.Errorf("build %d: %s there: %v, want %v", i+1, gz, err == nil, big)
		}
		time.Sleep(2 * racyWindow) // the folder's time is recorded
	}
}
