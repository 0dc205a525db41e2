package export

import (
	"crypto/sha256"
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
	withFolderTimes(t, 100*time.Millisecond)
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
	withFolderTimes(t, 100*time.Millisecond)
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

// TestFolderTimesByClock: a folder's time read just before its listing is
// trusted by the next build once the file system's clock had moved past
// it (probeClock), however soon after: it is not listed again. A stray
// added at once after a build is still found; the folder its removal
// changed is listed once more.
func TestFolderTimesByClock(t *testing.T) {
	dir := t.TempDir()
	if _, ok := dirChanged(dir); !ok {
		t.Skip("no folder status-change times here: every folder is listed")
	}
	// The build's last change and the probe come microseconds apart; the
	// test waits between them, longer than a tick of any clock of a file
	// system tests run on (it checks).
	const tick = 50 * time.Millisecond
	first := probeClockOf(dir)
	time.Sleep(tick)
	if second := probeClockOf(dir); !first.ok || !second.ok || second.ns <= first.ns {
		t.Skipf("this file system's clock did not move in %v", tick)
	}
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = time.Hour // only the probe can make a time trusted
	defer func(f func(string) fsClock) { probeClock = f }(probeClock)
	probed := 0
	probeClock = func(dir string) fsClock {
		probed++
		time.Sleep(tick)
		return probeClockOf(dir)
	}
	var listed []string
	defer func(f func(string) ([]os.DirEntry, error)) { listFolder = f }(listFolder)
	out := filepath.Join(t.TempDir(), "public")
	listFolder = func(name string) ([]os.DirEntry, error) {
		rel, _ := filepath.Rel(out, name)
		listed = append(listed, filepath.ToSlash(rel))
		return os.ReadDir(name)
	}
	opts := fakeOptions
	opts.Fingerprint = func(p string, _ func(string) ([sha256.Size]byte, int, bool)) (Print, bool) {
		return Print{Sum: sha256.Sum256([]byte(p))}, true // no answer changes
	}
	build := func(step string, want ...string) {
		t.Helper()
		listed = nil
		if _, err := Write(out, fakeSite{}, fakePaths, opts); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		slices.Sort(listed)
		if !slices.Equal(listed, want) && !(len(listed) == 0 && len(want) == 0) {
			t.Errorf("%s: listed %q, want %q", step, listed, want)
		}
	}
	build("cold")
	build("first update", ".", "api", "blog", "blog/café") // no times recorded
	build("nothing changed")
	stray := filepath.Join(out, "blog", "café", "stray.txt")
	if err := os.WriteFile(stray, []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	build("a stray", "blog/café")
	build("at once after: the stray's removal changed the folder", "blog/café")
	build("at once after that")
	if err := os.WriteFile(stray, []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	build("a stray at once after a build", "blog/café")
	if _, err := os.Lstat(stray); err == nil {
		t.Errorf("%s is still there", stray)
	}
	if probed == 0 {
		t.Error("the file system's clock was never read")
	}
}

// changedFolderSetup is out built cold and once more (its folders' times
// recorded), with /blog/p1.md, whose answer changes with *gen, so that a
// build after *gen changes changes the folder blog.
func changedFolderSetup(t *testing.T) (out string, opts Options, gen *int, paths []string) {
	dir := t.TempDir()
	if _, ok := dirChanged(dir); !ok {
		t.Skip("no ctime")
	}
	old := probeClock
	t.Cleanup(func() { probeClock = old })
	probeClock = func(dir string) fsClock { // a tick passes before the clock is read
		time.Sleep(50 * time.Millisecond)
		return probeClockOf(dir)
	}
	gen = new(int)
	opts = fakeOptions
	opts.Fingerprint = func(p string, _ func(string) ([sha256.Size]byte, int, bool)) (Print, bool) {
		if p == "/blog/p1.md" {
			return Print{Sum: sha256.Sum256([]byte(p + string(rune('0'+*gen))))}, true
		}
		return Print{Sum: sha256.Sum256([]byte(p))}, true
	}
	out = filepath.Join(t.TempDir(), "public")
	paths = slices.Concat(fakePaths, []string{"/blog/p1.md"})
	for range 2 {
		if _, err := Write(out, fakeSite{bigTwins: *gen == 1}, paths, opts); err != nil {
			t.Fatal(err)
		}
		time.Sleep(100 * time.Millisecond)
	}
	return out, opts, gen, paths
}

// TestStrayWhileBuilding: a stray written into a folder the build
// changes (here when the clock is read) is found by the next build.
func TestStrayWhileBuilding(t *testing.T) {
	out, opts, gen, paths := changedFolderSetup(t)
	stray := filepath.Join(out, "blog", "stray.txt")
	probeClock = func(dir string) fsClock {
		os.WriteFile(stray, []byte("stray"), 0o644)
		time.Sleep(50 * time.Millisecond)
		return probeClockOf(dir)
	}
	*gen = 1 // blog/p1.md changes: the folder blog is touched
	if _, err := Write(out, fakeSite{bigTwins: true}, paths, opts); err != nil {
		t.Fatal(err)
	}
	probeClock = func(dir string) fsClock { time.Sleep(50 * time.Millisecond); return probeClockOf(dir) }
	time.Sleep(100 * time.Millisecond)
	if _, err := Write(out, fakeSite{bigTwins: true}, paths, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stray); err == nil {
		t.Errorf("the build after: %s is still there (never listed again)", stray)
	}
}

// TestStrayAfterReadAhead: a stray added while the site loads (after
// ReadAhead found its folder clean) into a folder the build then changes
// is found by the next build.
func TestStrayAfterReadAhead(t *testing.T) {
	out, opts, gen, paths := changedFolderSetup(t)
	a := ReadAhead(out)
	<-a.done
	stray := filepath.Join(out, "blog", "stray.txt")
	if err := os.WriteFile(stray, []byte("stray"), 0o644); err != nil {
		t.Fatal(err)
	}
	*gen = 1
	o := opts
	o.Ahead = a
	st, err := Stage(out, fakeSite{bigTwins: true}, paths, o)
	if err != nil {
		t.Fatal(err)
	}
	if st.ahead == nil {
		t.Fatal("the build did not take what ReadAhead found")
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	a.Close()
	time.Sleep(100 * time.Millisecond)
	if _, err := Write(out, fakeSite{bigTwins: true}, paths, opts); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(stray); err == nil {
		t.Errorf("the build after: %s is still there (never listed again)", stray)
	}
}
