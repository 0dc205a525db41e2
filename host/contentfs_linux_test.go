package host

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestContentFSReadStat: the quicker read gives the stat of the file it
// read (the parse cache's stamp of those bytes, pipeline/cache.go): its
// inode, size and times, before the read; a file written after has
// another.
func TestContentFSReadStat(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "a.md")
	if err := os.WriteFile(name, []byte("---\ntitle: a\n---\nA.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, content := openContentFS(t, dir)
	fsys := content.(contentFS)
	stat := func() *syscall.Stat_t {
		t.Helper()
		info, err := os.Stat(name)
		if err != nil {
			t.Fatal(err)
		}
		return info.Sys().(*syscall.Stat_t)
	}
	read := func() *syscall.Stat_t {
		t.Helper()
		_, info, ok := fsys.ReadSmallFile("a.md", 1<<20)
		if !ok {
			t.Fatal("declined")
		}
		return info.Sys().(*syscall.Stat_t)
	}
	same := func(a, b *syscall.Stat_t) bool {
		return a.Ino == b.Ino && a.Dev == b.Dev && a.Size == b.Size && a.Mtim == b.Mtim && a.Ctim == b.Ctim
	}
	before := read()
	if want := stat(); !same(before, want) {
		t.Errorf("stat of the read %+v, want %+v", before, want)
	}
	if err := os.WriteFile(name, []byte("---\ntitle: b\n---\nB, longer.\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after := read()
	if want := stat(); !same(after, want) || same(after, before) {
		t.Errorf("after a write: stat of the read %+v, want %+v (before %+v)", after, want, before)
	}
}

// TestContentFSReadDirTypes: listing a folder without a stat of each
// entry gives the os.Root's entries (names, in order, and types; Info
// the os.Root's stat; names that begin alike, shorter and longer than
// the sixteen bytes the sort compares first), a folder of more entries
// than one read of the kernel's listing holds whole, and declines to the os.Root (which says
// why) a folder it cannot list beneath the root: a link out, a file, a
// missing folder, a path fs.FS does not allow.
func TestContentFSReadDirTypes(t *testing.T) {
	outside := t.TempDir()
	dir := t.TempDir()
	for _, d := range []string{"blog/sub", "many"} {
		if err := os.MkdirAll(filepath.Join(dir, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, f := range []string{"blog/a.md", "blog/B.md", "blog/.hidden", "blog/sub/x.md", "top.md",
		"blog/a", "blog/ab", "blog/aaaaaaaaaaaaaaaab.md", "blog/aaaaaaaaaaaaaaaa", "blog/aaaaaaaaaaaaaaaa.md", "blog/aaaaaaaaaaaaaaa"} {
		if err := os.WriteFile(filepath.Join(dir, f), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3000 { // names of 60 bytes: more than a 64 KiB listing
		name := fmt.Sprintf("%055d.md", i)
		if err := os.WriteFile(filepath.Join(dir, "many", name), nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for target, name := range map[string]string{"a.md": "blog/in.md", outside: "out", "blog": "linked", filepath.Join(outside, "gone"): "blog/dangling.md"} {
		if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
	}
	if err := syscall.Mkfifo(filepath.Join(dir, "blog", "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	root, content := openContentFS(t, dir)
	fsys := content.(contentFS)
	for _, name := range []string{".", "blog", "blog/sub", "many", "linked", "out", "top.md", "missing", "blog/../blog", "/etc"} {
		want, wantErr := fs.ReadDir(root.FS(), name)
		got, err := fsys.ReadDirTypes(name)
		if (err != nil) != (wantErr != nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("%s: error %v, the os.Root's %v", name, err, wantErr)
			continue
		}
		if len(got) != len(want) {
			t.Errorf("%s: %d entries, the os.Root's %d", name, len(got), len(want))
			continue
		}
		// Listed without the os.Root where the kernel resolves it beneath.
		if len(got) > 0 {
			if _, quick := got[0].(*typedEntry); !quick {
				t.Errorf("%s: listed by the os.Root", name)
			}
		}
		for i := range got {
			g, w := got[i], want[i]
			if g.Name() != w.Name() || g.Type() != w.Type() || g.IsDir() != w.IsDir() {
				t.Errorf("%s: entry %d %s, the os.Root's %s", name, i, g, w)
				continue
			}
			gi, gerr := g.Info()
			wi, werr := w.Info()
			if (gerr != nil) != (werr != nil) || gerr == nil && (gi.Name() != wi.Name() || gi.Mode() != wi.Mode() || !os.SameFile(gi, wi)) {
				t.Errorf("%s: %s's Info %v %v, the os.Root's %v %v", name, g.Name(), gi, gerr, wi, werr)
			}
		}
	}
	if got, _ := fsys.ReadDirTypes("many"); len(got) != 3000 {
		t.Errorf("many: %d entries", len(got))
	}
}
