package watch

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// Each editor saves a file its own way. The sequences below are the
// system calls the editors make (vim's were read off strace; the others
// from their sources and documentation), performed on a real folder.

// fsops performs file operations inside dir, failing the test on error.
type fsops struct {
	t   testing.TB
	dir string
}

func (o fsops) path(name string) string { return filepath.Join(o.dir, filepath.FromSlash(name)) }

// create makes a new file, failing if it exists (O_EXCL), as vim makes
// its probe and backup files.
func (o fsops) create(name, body string) {
	o.t.Helper()
	f, err := os.OpenFile(o.path(name), os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	must(o.t, err)
	_, err = f.WriteString(body)
	must(o.t, err)
	must(o.t, f.Close())
}

// overwrite opens name without O_TRUNC, truncates it, then writes the
// chunks with an fsync after each: vim's write of the file itself.
func (o fsops) overwrite(name string, chunks ...string) {
	o.t.Helper()
	f, err := os.OpenFile(o.path(name), os.O_WRONLY|os.O_CREATE, 0o644)
	must(o.t, err)
	must(o.t, f.Truncate(0))
	for _, c := range chunks {
		_, err = f.WriteString(c)
		must(o.t, err)
		must(o.t, f.Sync())
	}
	must(o.t, f.Close())
}

// truncWrite opens name with O_TRUNC and writes the chunks: Node's
// fs.writeFile, which VS Code uses for an in-place save.
func (o fsops) truncWrite(name string, chunks ...string) {
	o.t.Helper()
	f, err := os.OpenFile(o.path(name), os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o644)
	must(o.t, err)
	for _, c := range chunks {
		_, err = f.WriteString(c)
		must(o.t, err)
	}
	must(o.t, f.Close())
}

func (o fsops) rename(from, to string) {
	o.t.Helper()
	must(o.t, os.Rename(o.path(from), o.path(to)))
}

func (o fsops) remove(name string) {
	o.t.Helper()
	must(o.t, os.Remove(o.path(name)))
}

func (o fsops) chmod(name string, mode os.FileMode) {
	o.t.Helper()
	must(o.t, os.Chmod(o.path(name), mode))
}

func TestEditorSaves(t *testing.T) {
	tests := []struct {
		name string
		save func(o fsops)
		want []string
	}{{
		// vim, backupcopy=auto (the default) on an ordinary file: probe
		// whether a new file gets the same owner, then back up by rename
		// and write a new file. The swap file is written throughout.
		name: "vim rename dance",
		save: func(o fsops) {
			o.overwrite("blog/.x.md.swp", "b0VIM swap")
			o.create("blog/4913", "")
			must(o.t, os.Chown(o.path("blog/4913"), os.Getuid(), os.Getgid()))
			o.remove("blog/4913")
			o.rename("blog/x.md", "blog/x.md~")
			o.overwrite("blog/x.md", "---\ntitle: new\n---\n")
			o.chmod("blog/x.md", 0o644)
			o.remove("blog/x.md~")
			o.overwrite("blog/.x.md.swp", "b0VIM swap again")
		},
		want: []string{"blog/x.md"},
	}, {
		// vim, backupcopy=yes: copy the file to the backup, write the
		// original in place, delete the backup.
		name: "vim backupcopy=yes",
		save: func(o fsops) {
			o.create("blog/x.md~", "---\ntitle: old\n---\n")
			must(o.t, os.Chtimes(o.path("blog/x.md~"), time.Now(), time.Now()))
			o.overwrite("blog/x.md", "---\ntitle: new\n---\n")
			o.remove("blog/x.md~")
		},
		want: []string{"blog/x.md"},
	}, {
		// vim when 4913 exists already: the probe moves on to 5036.
		name: "vim second probe",
		save: func(o fsops) {
			o.create("blog/5036", "")
			o.remove("blog/5036")
			o.rename("blog/x.md", "blog/x.md~")
			o.overwrite("blog/x.md", "new")
			o.remove("blog/x.md~")
		},
		want: []string{"blog/x.md"},
	}, {
		// JetBrains "safe write": write a temporary file, move the
		// original aside, move the temporary file into place, delete the
		// original.
		name: "jetbrains safe write",
		save: func(o fsops) {
			o.create("blog/x.md___jb_tmp___", "new")
			o.rename("blog/x.md", "blog/x.md___jb_old___")
			o.rename("blog/x.md___jb_tmp___", "blog/x.md")
			o.remove("blog/x.md___jb_old___")
		},
		want: []string{"blog/x.md"},
	}, {
		// VS Code writes in place: truncate, then several writes.
		name: "vs code in place",
		save: func(o fsops) { o.truncWrite("blog/x.md", "---\n", "title: new\n", "---\nbody\n") },
		want: []string{"blog/x.md"},
	}, {
		// GNU sed -i: a temporary "sedXXXXXX" beside the file, renamed
		// over it.
		name: "sed -i",
		save: func(o fsops) {
			f, err := os.OpenFile(o.path("blog/sedAb12Cd"), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
			must(o.t, err)
			_, err = f.WriteString("new")
			must(o.t, err)
			must(o.t, f.Chmod(0o644))
			must(o.t, f.Close())
			o.rename("blog/sedAb12Cd", "blog/x.md")
		},
		want: []string{"blog/x.md"},
	}, {
		// Atomic-write libraries and many tools: a hidden temporary file
		// renamed over the original.
		name: "temp file then rename",
		save: func(o fsops) {
			o.create("blog/.x.md.tmp123", "new")
			o.rename("blog/.x.md.tmp123", "blog/x.md")
		},
		want: []string{"blog/x.md"},
	}, {
		// A visible temporary name ("*.tmp") renamed over the original.
		name: "tmp suffix then rename",
		save: func(o fsops) {
			o.create("blog/x.md.tmp", "new")
			o.rename("blog/x.md.tmp", "blog/x.md")
		},
		want: []string{"blog/x.md"},
	}, {
		// Emacs: a lock symlink while the buffer is modified, autosaves
		// to #x.md#, and on the first save a backup by rename; then the
		// autosave and the lock go.
		name: "emacs",
		save: func(o fsops) {
			must(o.t, os.Symlink("user@host.4242:1700000000", o.path("blog/.#x.md")))
			o.create("blog/#x.md#", "autosave")
			o.overwrite("blog/#x.md#", "autosave 2")
			o.rename("blog/x.md", "blog/x.md~")
			o.create("blog/x.md", "new")
			o.remove("blog/#x.md#")
			o.remove("blog/.#x.md")
		},
		want: []string{"blog/x.md"},
	}, {
		name: "new file",
		save: func(o fsops) { o.create("blog/y.md", "new") },
		want: []string{"blog/y.md"},
	}, {
		name: "delete",
		save: func(o fsops) { o.remove("blog/x.md") },
		want: []string{"blog/x.md"},
	}, {
		name: "chmod only",
		save: func(o fsops) { o.chmod("blog/x.md", 0o600) },
		want: nil,
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			tree(t, dir, map[string]string{"blog/x.md": "---\ntitle: old\n---\n", "blog/.x.md.swp": "b0VIM"})
			w, _ := start(t, Options{}, dir)
			tt.save(fsops{t, dir})
			if tt.want == nil {
				none(t, w)
				return
			}
			wantPaths(t, only(t, w), dir, tt.want...)
		})
	}
}

// TestIgnoredOnly checks that activity on ignored files alone (a swap
// file being written while the author types) delivers nothing.
func TestIgnoredOnly(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree(t, dir, map[string]string{"blog/x.md": "x", "blog/.x.md.swp": "b0VIM"})
	w, _ := start(t, Options{}, dir)
	o := fsops{t, dir}
	for i := range 5 {
		o.overwrite("blog/.x.md.swp", "b0VIM", string(rune('a'+i)))
		o.create("blog/"+string(rune('a'+i))+".md~", "backup")
	}
	must(t, os.Mkdir(o.path(".git"), 0o755))
	o.create(".git/index", "x")
	none(t, w)
}

// The real tools, when installed: their exact behaviour, whatever their
// version.
func TestRealTools(t *testing.T) {
	tests := []struct {
		name string
		tool string
		args func(file string) []string
	}{
		{"sed -i", "sed", func(f string) []string { return []string{"-i", "s/old/new/", f} }},
		{"vim", "vim", func(f string) []string {
			// backupskip= because temporary folders are skipped by
			// default, and the backup is the interesting part.
			return []string{"-u", "NONE", "-N", "-i", "NONE", "-es",
				"-c", "set backupskip= writebackup backupcopy=auto", "-c", "%s/old/new/", "-c", "wq", f}
		}},
		{"vim backupcopy=yes", "vim", func(f string) []string {
			return []string{"-u", "NONE", "-N", "-i", "NONE", "-es",
				"-c", "set backupskip= writebackup backupcopy=yes", "-c", "%s/old/new/", "-c", "wq", f}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			bin, err := exec.LookPath(tt.tool)
			if err != nil {
				t.Skipf("%s not installed", tt.tool)
			}
			t.Parallel()
			dir := t.TempDir()
			tree(t, dir, map[string]string{"blog/x.md": "---\ntitle: old\n---\n"})
			w, _ := start(t, Options{}, dir)
			cmd := exec.Command(bin, tt.args(filepath.Join(dir, "blog", "x.md"))...)
			cmd.Env = append(os.Environ(), "HOME="+t.TempDir())
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Fatalf("%s: %v\n%s", tt.tool, err, out)
			}
			wantPaths(t, only(t, w), dir, "blog/x.md")
			if b, _ := os.ReadFile(filepath.Join(dir, "blog", "x.md")); string(b) != "---\ntitle: new\n---\n" {
				t.Fatalf("the tool did not save: %q", b)
			}
		})
	}
}
