package export

import (
	"crypto/sha256"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestAhead: a record read ahead of Stage (ReadAhead) is taken when it is
// still out's record, and what it found of out is used: a file edited
// and a stray added before it looked are put right at once; after it
// looked, by the next build. When another build wrote out meanwhile, it
// is not taken (taken, it would not know of that build's files). Each
// time the folder ends as a cold build's.
func TestAhead(t *testing.T) {
	withFolderTimes(t, 100*time.Millisecond)
	opts := fakeOptions
	opts.Fingerprint = func(p string, _ func(string) ([sha256.Size]byte, int, bool)) (Print, bool) {
		return Print{Sum: sha256.Sum256([]byte(p))}, true // no answer changes
	}
	out := filepath.Join(t.TempDir(), "public")
	cold := filepath.Join(t.TempDir(), "public")
	if _, err := Write(cold, fakeSite{}, fakePaths, Options{NotFound: opts.NotFound, Redirects: opts.Redirects}); err != nil {
		t.Fatal(err)
	}
	write := func(step string, paths []string, ahead *Ahead) (taken bool) {
		t.Helper()
		o := opts
		o.Ahead = ahead
		st, err := Stage(out, fakeSite{}, paths, o)
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		taken = st.ahead != nil
		if err := st.Commit(); err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		ahead.Close()
		time.Sleep(2 * racyWindow) // the folders' times are recorded
		return taken
	}
	edit := func() (stray string) {
		t.Helper()
		if err := os.WriteFile(filepath.Join(out, "index.html"), []byte("edited in the output"), 0o644); err != nil {
			t.Fatal(err)
		}
		stray = filepath.Join(out, "blog", "stray.txt")
		if err := os.WriteFile(stray, []byte("stray"), 0o644); err != nil {
			t.Fatal(err)
		}
		return stray
	}
	write("cold", fakePaths, nil)
	write("first update", fakePaths, nil) // the folders' times recorded

	stray := edit()
	if !write("edited, then read ahead", fakePaths, ReadAhead(out)) {
		t.Error("edited, then read ahead: the record read ahead was not taken")
	}
	sameFiles(t, out, cold)
	if _, err := os.Lstat(stray); err == nil {
		t.Errorf("edited, then read ahead: %s is still there", stray)
	}

	a := ReadAhead(out)
	<-a.done // it looked at every file and folder
	stray = edit()
	if !write("read ahead, then edited", fakePaths, a) {
		t.Error("read ahead, then edited: the record read ahead was not taken")
	}
	write("the build after", fakePaths, nil)
	sameFiles(t, out, cold)
	if _, err := os.Lstat(stray); err == nil {
		t.Errorf("the build after: %s is still there", stray)
	}

	a = ReadAhead(out)
	<-a.done
	// Another build writes out meanwhile, with a file of its own in a
	// folder the record read ahead found clean.
	big := slices.Concat(fakePaths, []string{"/blog/p1.md"})
	write("another build meanwhile", big, nil)
	if _, err := os.Lstat(filepath.Join(out, "blog", "p1.md")); err != nil {
		t.Fatal(err)
	}
	if write("over another build", fakePaths, a) {
		t.Error("over another build: the record read ahead was taken")
	}
	sameFiles(t, out, cold)
}

// TestAheadNoRecord: with no record, or one of another format, nothing
// is taken, and the build is cold.
func TestAheadNoRecord(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	a := ReadAhead(out)
	if prev, _, _, ok := a.take(out, manifestFormat); ok || prev != nil {
		t.Error("no output: a record was taken")
	}
	a.Close()
	if _, err := Write(out, fakeSite{}, fakePaths, Options{NotFound: "/404.html", NoGzip: true}); err != nil {
		t.Fatal(err)
	}
	a = ReadAhead(out)
	defer a.Close()
	if _, _, _, ok := a.take(out, manifestFormat); ok {
		t.Error("a record without gzip twins was taken for one with")
	}
	if _, _, _, ok := a.take(out+"x", manifestFormat+" nogzip"); ok {
		t.Error("a record was taken for another output")
	}
}

// TestAheadCacheWhole: a parse cache the build says it read whole and
// leaves in place (KeepCache) is known whole to the next build's
// read-ahead by its stamp, until it is written (in place, or replaced);
// a stamp too recent when the build began is not kept, nor any after a
// build that kept none.
func TestAheadCacheWhole(t *testing.T) {
	withFolderTimes(t, 100*time.Millisecond)
	out := filepath.Join(t.TempDir(), "public")
	cache := CachePath(out)
	stat := func() os.FileInfo {
		t.Helper()
		info, err := os.Stat(cache)
		if err != nil {
			t.Fatal(err)
		}
		return info
	}
	// build writes out over its record, keeping the cache as info
	// describes it (nil: none) for a build begun at began.
	build := func(info os.FileInfo, began time.Time) {
		t.Helper()
		st, err := Stage(out, fakeSite{}, fakePaths, fakeOptions)
		if err != nil {
			t.Fatal(err)
		}
		if info != nil {
			st.KeepCache(info, began)
		}
		if err := st.Commit(); err != nil {
			t.Fatal(err)
		}
	}
	whole := func(info os.FileInfo) bool {
		a := ReadAhead(out)
		defer a.Close()
		return a.CacheWhole(info)
	}
	build(nil, time.Now()) // cold: no cache beside out
	if err := os.WriteFile(cache, []byte("a parse cache"), 0o644); err != nil {
		t.Fatal(err)
	}
	time.Sleep(2 * racyWindow)
	if whole(stat()) {
		t.Error("a cache no build kept is known whole")
	}
	build(stat(), time.Now())
	if !whole(stat()) {
		t.Error("the cache kept by the last build is not known whole")
	}
	build(nil, time.Now())
	if whole(stat()) {
		t.Error("a cache the last build did not keep is known whole")
	}
	build(stat(), time.Now())
	f, err := os.OpenFile(cache, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteAt([]byte("A"), 0) // in place, the same size
	f.Close()
	if whole(stat()) {
		t.Error("a cache written in place since is known whole")
	}
	build(stat(), stat().ModTime()) // begun as the cache was written
	if whole(stat()) {
		t.Error("a cache stamped within racyWindow of the build's beginning is known whole")
	}
}
