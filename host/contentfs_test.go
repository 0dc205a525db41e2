//go:build unix

package host

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestContentFSReadSmallFile: the quicker read gives a file's bytes
// exactly, and declines (the pipeline then reads through the os.Root,
// which says why) whatever is not a regular file of at most max bytes
// inside the folder: a link out of it, a folder, a FIFO (without
// waiting for a writer), a missing file, a larger file, a path fs.FS
// does not allow.
func TestContentFSReadSmallFile(t *testing.T) {
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "secret.md"), []byte("secret"), 0o644); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	write := func(name string, data []byte) {
		t.Helper()
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	post := bytes.Repeat([]byte("---\ntitle: x\n---\nbody ünï\n"), 1000)
	write("blog/a.md", post)
	write("blog/empty.md", nil)
	write("blog/big.md", make([]byte, 101))
	link := func(target, name string) {
		t.Helper()
		if err := os.Symlink(target, filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	link(filepath.Join(outside, "secret.md"), "blog/out-abs.md")
	rel, _ := filepath.Rel(filepath.Join(dir, "blog"), filepath.Join(outside, "secret.md"))
	link(rel, "blog/out-rel.md")
	link("a.md", "blog/in.md")
	link(outside, "out")
	if err := syscall.Mkfifo(filepath.Join(dir, "blog", "fifo.md"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, content := openContentFS(t, dir)
	fsys, ok := content.(pipeline.SmallFileFS)
	if !ok {
		t.Fatal("the content FS has no quicker read")
	}
	for _, c := range []struct {
		name string
		want []byte // nil: declined
	}{
		{"blog/a.md", post},
		{"blog/empty.md", []byte{}},
		{"blog/in.md", post}, // a link inside the folder: the os.Root follows it too
		{"blog/big.md", nil},
		{"blog/out-abs.md", nil},
		{"blog/out-rel.md", nil},
		{"out/secret.md", nil},
		{"blog/fifo.md", nil},
		{"blog", nil},
		{"blog/missing.md", nil},
		{"../secret.md", nil},
		{"/etc/passwd", nil},
		{"blog/./a.md", nil},
	} {
		got, info, ok := fsys.ReadSmallFile(c.name, 100<<10)
		if c.name == "blog/big.md" {
			got, info, ok = fsys.ReadSmallFile(c.name, 100)
		}
		if runtime.GOOS != "linux" {
			if ok {
				t.Errorf("%s: read, but only Linux has the quicker read", c.name)
			}
			continue
		}
		switch {
		case c.want == nil && ok:
			t.Errorf("%s: read %q, want declined", c.name, got)
		case c.want != nil && !ok:
			t.Errorf("%s: declined", c.name)
		case c.want != nil && !bytes.Equal(got, c.want):
			t.Errorf("%s: read %d bytes, want %d", c.name, len(got), len(c.want))
		case ok && (info == nil || info.Size() != int64(len(got)) || !info.Mode().IsRegular()):
			t.Errorf("%s: read %d bytes, but stat %v", c.name, len(got), info)
		}
	}
	// The os.Root's own answers stand for what was declined.
	for _, name := range []string{"blog/out-abs.md", "blog/out-rel.md", "out/secret.md"} {
		if _, err := fs.ReadFile(fsys, name); err == nil {
			t.Errorf("%s: the os.Root read a file outside the folder", name)
		}
	}
	// Everything else goes to the os.Root's FS (fstest opens every file
	// it finds, and would wait for a writer of the FIFO).
	for _, name := range []string{"blog/fifo.md", "blog/out-abs.md", "blog/out-rel.md", "out"} {
		if err := os.Remove(filepath.Join(dir, filepath.FromSlash(name))); err != nil {
			t.Fatal(err)
		}
	}
	if err := fstest.TestFS(fsys, "blog/a.md", "blog/empty.md"); err != nil {
		t.Error(err)
	}
}

// openContentFS opens dir as an os.Root, closed when the test ends, and
// its content FS.
func openContentFS(t *testing.T, dir string) (*os.Root, fs.FS) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { root.Close() })
	return root, newContentFS(root)
}
