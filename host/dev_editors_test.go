package host

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"

	"folio/pipeline"
)

// Each editor saves its own way (see package watch's editor tests for the
// system calls). End to end, every save must make exactly one new
// snapshot, and that snapshot must hold the new content.

func TestDevEditorSaves(t *testing.T) {
	const oldPost = "---\ntitle: Old\ndate: 2026-01-01T00:00:00Z\n---\nold body\n"
	const newPost = "---\ntitle: New\ndate: 2026-01-01T00:00:00Z\n---\nnew body\n"
	tests := []struct {
		name string
		save func(t *testing.T, blog string)
	}{{
		name: "vim rename dance",
		save: func(t *testing.T, blog string) {
			at := func(n string) string { return filepath.Join(blog, n) }
			must(t, os.WriteFile(at(".x.md.swp"), []byte("b0VIM"), 0o644))
			must(t, os.WriteFile(at("4913"), nil, 0o644))
			must(t, os.Remove(at("4913")))
			must(t, os.Rename(at("x.md"), at("x.md~")))
			overwrite(t, at("x.md"), newPost)
			must(t, os.Chmod(at("x.md"), 0o644))
			must(t, os.Remove(at("x.md~")))
			must(t, os.Remove(at(".x.md.swp")))
		},
	}, {
		name: "vim backupcopy=yes",
		save: func(t *testing.T, blog string) {
			at := func(n string) string { return filepath.Join(blog, n) }
			must(t, os.WriteFile(at("x.md~"), []byte(oldPost), 0o644))
			overwrite(t, at("x.md"), newPost)
			must(t, os.Remove(at("x.md~")))
		},
	}, {
		name: "jetbrains safe write",
		save: func(t *testing.T, blog string) {
			at := func(n string) string { return filepath.Join(blog, n) }
			must(t, os.WriteFile(at("x.md___jb_tmp___"), []byte(newPost), 0o644))
			must(t, os.Rename(at("x.md"), at("x.md___jb_old___")))
			must(t, os.Rename(at("x.md___jb_tmp___"), at("x.md")))
			must(t, os.Remove(at("x.md___jb_old___")))
		},
	}, {
		name: "vs code in place",
		save: func(t *testing.T, blog string) {
			f, err := os.OpenFile(filepath.Join(blog, "x.md"), os.O_WRONLY|os.O_TRUNC, 0o644)
			must(t, err)
			for _, chunk := range []string{newPost[:10], newPost[10:30], newPost[30:]} {
				_, err = f.WriteString(chunk)
				must(t, err)
			}
			must(t, f.Close())
		},
	}, {
		name: "sed -i",
		save: func(t *testing.T, blog string) {
			if _, err := exec.LookPath("sed"); err != nil {
				t.Skip("no sed")
			}
			out, err := exec.Command("sed", "-i", "-e", "s/title: Old/title: New/", "-e", "s/old body/new body/", filepath.Join(blog, "x.md")).CombinedOutput()
			if err != nil {
				t.Fatalf("sed: %v: %s", err, out)
			}
		},
	}, {
		name: "temp file then rename",
		save: func(t *testing.T, blog string) {
			tmp := filepath.Join(blog, ".x.md.tmp8731")
			must(t, os.WriteFile(tmp, []byte(newPost), 0o644))
			must(t, os.Rename(tmp, filepath.Join(blog, "x.md")))
		},
	}, {
		// A visible name: a file of the site if it stayed, so not ignored,
		// but gone by the burst's end, so no change of its own.
		name: "visible temp file then rename",
		save: func(t *testing.T, blog string) {
			tmp := filepath.Join(blog, "x.md.tmp")
			must(t, os.WriteFile(tmp, []byte(newPost), 0o644))
			must(t, os.Rename(tmp, filepath.Join(blog, "x.md")))
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := startDev(t, newDevDir(t, map[string]string{
				"content/blog/x.md":     oldPost,
				"content/blog/other.md": post("Other", "2025-01-01T00:00:00Z"),
			}), nil)
			before := f.count()
			if titleOf(f.h.Snapshot(), "x") != "Old" {
				t.Fatal("the first snapshot lacks the old post")
			}
			tt.save(t, filepath.Join(f.dir, "content", "blog"))
			f.waitSnap("the saved post", func(s *pipeline.Snapshot) bool { return titleOf(s, "x") == "New" })
			got := f.afterSettling(before)
			if len(got) != 1 {
				t.Fatalf("the save made %d snapshots, want 1: %s", len(got), describe(got))
			}
			s := got[0]
			p := s.Post("x")
			if p == nil || p.Title != "New" || len(s.Posts()) != 2 || len(s.Problems()) != 0 {
				t.Fatalf("snapshot after the save: %s", describe(got))
			}
			if text := bodyText(p); text != "new body\n" {
				t.Errorf("body %q, want the new one", text)
			}
		})
	}
}

// afterSettling returns the snapshots made since before, once a marker,
// a burst of its own after the changes so far, has come through: the host
// applies the deliveries in order, so every snapshot of the changes comes
// before the marker's.
func (f *devFixture) afterSettling(before int) []*pipeline.Snapshot {
	f.t.Helper()
	f.settle() // the changes so far are one burst; the marker is the next
	f.mu.Lock()
	f.marks++
	mark := "Mark " + strconv.Itoa(f.marks)
	f.mu.Unlock()
	f.write("content/blog/zz-mark.md", post(mark, "2020-01-01T00:00:00Z"))
	f.waitSnap("the marker", func(s *pipeline.Snapshot) bool { return titleOf(s, "zz-mark") == mark })
	got := f.since(before)
	last := got[len(got)-1]
	if titleOf(last, "zz-mark") != mark {
		f.t.Fatalf("a snapshot came after the marker's")
	}
	for _, s := range got[:len(got)-1] {
		if titleOf(s, "zz-mark") == mark {
			f.t.Fatalf("the marker came in two snapshots: %s", describe(got))
		}
	}
	return got[:len(got)-1]
}

func overwrite(t *testing.T, name string, chunks ...string) {
	t.Helper()
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE, 0o644)
	must(t, err)
	must(t, f.Truncate(0))
	for _, c := range chunks {
		_, err = f.WriteString(c)
		must(t, err)
		must(t, f.Sync())
	}
	must(t, f.Close())
}

func bodyText(p *pipeline.Post) string {
	var s string
	for _, n := range p.Body {
		s += n.Text
	}
	return s
}

func describe(snaps []*pipeline.Snapshot) string {
	var s string
	for _, sn := range snaps {
		s += "\n  #" + strconv.FormatUint(sn.ID(), 10) + ":"
		for _, p := range sn.Posts() {
			s += " " + p.Slug + "=" + strconv.Quote(p.Title)
		}
		for _, p := range sn.Problems() {
			s += " [" + p.String() + "]"
		}
	}
	return s
}
