package host

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/pipeline"
	"folio/watch"
)

// The config file is watched through its folder, so it is seen whether or
// not it existed when folio dev started (devwatch.go).

// TestDevConfigFileAppears starts folio dev in a folder without
// config.toml (the defaults) and then creates, replaces by rename, breaks
// and deletes ./config.toml; files beside it cause no rebuild.
func TestDevConfigFileAppears(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "content", "blog", "x.md"), post("X", "2026-01-01T00:00:00Z"))
	t.Chdir(dir) // ./config.toml is the one read when --config is not given
	f := startDev(t, dir, func(s *Spec) { s.ConfigFile = "" })
	if got := f.h.Snapshot().Config().Title; got != "folio" {
		t.Fatalf("title %q without config.toml, want the default", got)
	}
	events := f.openEvents("")

	t.Run("created", func(t *testing.T) {
		f.write("config.toml", "title = \"Created\"\n")
		s := f.waitSnap("the new config", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Created" })
		wantReloadOf(t, events.next(t), s)
		if _, body := f.get("/"); !strings.Contains(body, "Created") {
			t.Error("the home page does not show the title of the new config.toml")
		}
	})

	t.Run("renamed over", func(t *testing.T) {
		f.write("config.toml.new", "title = \"Renamed\"\n")
		must(t, os.Rename(f.path("config.toml.new"), f.path("config.toml")))
		s := f.waitSnap("the renamed config", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Renamed" })
		wantReloadOf(t, events.next(t), s)
	})

	t.Run("broken", func(t *testing.T) {
		before := f.h.Snapshot()
		f.write("config.toml", "title = \"Broken\"\nlanguage = \n")
		wantProblem(t, events.next(t), "config.toml", 2, "")
		if f.h.Snapshot() != before {
			t.Error("a broken config replaced the snapshot")
		}
		if _, body := f.get("/"); !strings.Contains(body, "Renamed") {
			t.Error("the last good config is not served")
		}
	})

	t.Run("deleted", func(t *testing.T) {
		must(t, os.Remove(f.path("config.toml")))
		wantEventNamed(t, events.next(t), "clear")
		s := f.waitSnap("the defaults", func(s *pipeline.Snapshot) bool { return s.Config().Title == "folio" })
		wantReloadOf(t, events.next(t), s)
		if !strings.Contains(f.logs.String(), "config.toml gone; the built-in defaults apply") {
			t.Errorf("the log does not say the config is gone:\n%s", f.logs.String())
		}
	})

	t.Run("unrelated files", func(t *testing.T) {
		before := f.count()
		f.write("main.go", "package main\n")
		f.write("notes.txt", "notes\n")
		f.write(".git/HEAD", "ref: refs/heads/main\n")
		f.write("config.toml.orig", "title = \"Not this one\"\n")
		f.write("other/config.toml", "title = \"Nor this one\"\n")
		must(t, os.Remove(f.path("notes.txt")))
		// The burst ends, then the config itself is a marker: the host
		// applies deliveries in order, so a rebuild for the files above
		// would come before the marker's.
		f.settle()
		f.write("config.toml", "title = \"Marker\"\n")
		f.waitSnap("the marker config", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Marker" })
		if got := f.since(before); len(got) != 1 {
			t.Fatalf("%d snapshots for one config change and unrelated files, want 1: %s", len(got), describe(got))
		}
	})
}

// TestDevConfigFileNamed: a --config file deleted is an error, as it is at
// start (only ./config.toml is optional): the last good snapshot stays.
// Made again by a rename (git checkout, an editor's save), it is applied.
func TestDevConfigFileNamed(t *testing.T) {
	f := startDev(t, newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")}), nil)
	events := f.openEvents("")
	config := f.path("config.toml")
	before := f.h.Snapshot()

	must(t, os.Remove(config))
	wantProblem(t, events.next(t), config, 1, "no such file")
	if f.h.Snapshot() != before {
		t.Error("a deleted --config file replaced the snapshot")
	}

	f.write("staged.toml", devConfig+"description = \"Back again\"\n")
	must(t, os.Rename(f.path("staged.toml"), config))
	wantEventNamed(t, events.next(t), "clear")
	s := f.waitSnap("the config made again", func(s *pipeline.Snapshot) bool { return s.Config().Description == "Back again" })
	wantReloadOf(t, events.next(t), s)
}

// TestDevConfigInContentFolder: a config file inside the content folder is
// seen by its own root and the content folder's, and counted once: a save
// is one rebuild.
func TestDevConfigInContentFolder(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "content", "config.toml")
	writeFile(t, config, "title = \"One\"\ncontentDir = \".\"\n")
	writeFile(t, filepath.Join(dir, "content", "blog", "x.md"), post("X", "2026-01-01T00:00:00Z"))
	f := startDev(t, dir, func(s *Spec) { s.ConfigFile = config })
	before := f.count()
	f.write("content/config.toml", "title = \"Two\"\ncontentDir = \".\"\n")
	f.waitSnap("the new title", func(s *pipeline.Snapshot) bool { return s.Config().Title == "Two" })
	if got := f.afterSettling(before); len(got) != 1 {
		t.Fatalf("%d snapshots for one config save, want 1: %s", len(got), describe(got))
	}
}

// TestDevContentBatchOfConfig: the content folder's root reporting a
// config file inside the content folder makes no snapshot of its own: the
// config's root reports it in the same delivery.
func TestDevContentBatchOfConfig(t *testing.T) {
	dir := t.TempDir()
	config := filepath.Join(dir, "config.toml")
	writeFile(t, config, "contentDir = \".\"\n")
	writeFile(t, filepath.Join(dir, "blog", "x.md"), post("X", "2026-01-01T00:00:00Z"))
	h := loadUnrun(t, Spec{ConfigFile: config}.ForDev(false, nil))
	if h.w.roots.content != dir {
		t.Fatalf("content folder %q, want %q", h.w.roots.content, dir)
	}
	before := h.Snapshot()
	h.apply(h.w.change([]watch.Batch{{Root: h.w.roots.content, Paths: []string{"config.toml"}}}))
	if h.Snapshot() != before {
		t.Error("the config file seen as content made a snapshot")
	}
	h.apply(h.w.change([]watch.Batch{{Root: h.w.roots.content, Paths: []string{"blog/x.md", "config.toml"}}}))
	if h.Snapshot() == before {
		t.Error("a post changed beside the config made no snapshot")
	}
}

// wantProblem checks that ev lists one problem at path:line whose message
// holds message.
func wantProblem(t *testing.T, ev sseEvent, path string, line int, message string) {
	t.Helper()
	wantEventNamed(t, ev, "problems")
	var problems []pipeline.Problem
	must(t, json.Unmarshal([]byte(ev.Data), &problems))
	if len(problems) != 1 || problems[0].Path != path || problems[0].Line != line || !strings.Contains(problems[0].Message, message) {
		t.Fatalf("problems %+v, want %s:%d: …%s…", problems, path, line, message)
	}
}

// TestDevFoldersReplaced: a content folder outside the config's folder
// (--content) and a site folder, each replaced by a rename, are read and
// watched afresh; no snapshot is made from the removed folder on the way.
func TestDevFoldersReplaced(t *testing.T) {
	dir := newDevDir(t, nil)
	posts := filepath.Join(dir, "elsewhere", "posts")
	writeFile(t, filepath.Join(posts, "blog", "x.md"), post("X", "2026-01-01T00:00:00Z"))
	copySite(t, filepath.Join(dir, "theme"))
	writeFile(t, filepath.Join(dir, "config.toml"), devConfig+"siteDir = \"theme\"\n")
	f := startDev(t, dir, func(s *Spec) { s.Content = posts })
	before := f.count()

	staged := filepath.Join(dir, "elsewhere", "staged")
	writeFile(t, filepath.Join(staged, "blog", "y.md"), post("Y", "2026-01-01T00:00:00Z"))
	must(t, os.RemoveAll(posts))
	must(t, os.Rename(staged, posts))
	f.waitSnap("the new folder's post", func(s *pipeline.Snapshot) bool { return s.Post("y") != nil && s.Post("x") == nil })
	for _, s := range f.since(before) {
		if len(s.Posts()) == 0 {
			t.Fatalf("a snapshot without posts was served: %s", describe(f.since(before)))
		}
	}
	writeFile(t, filepath.Join(posts, "blog", "z.md"), post("Z", "2026-01-01T00:00:00Z"))
	f.waitSnap("a post written in the new folder", func(s *pipeline.Snapshot) bool { return s.Post("z") != nil })

	events := f.openEvents("")
	home := filepath.Join("templates", "home.html")
	orig, err := os.ReadFile(f.path(filepath.Join("theme", home)))
	must(t, err)
	copySite(t, f.path("theme-new"))
	writeFile(t, f.path(filepath.Join("theme-new", home)), strings.Replace(string(orig), `<section class="intro">`, `<section class="intro"><p>New theme</p>`, 1))
	must(t, os.RemoveAll(f.path("theme")))
	must(t, os.Rename(f.path("theme-new"), f.path("theme")))
	wantEventNamed(t, events.next(t), "reload")
	if _, body := f.get("/"); !strings.Contains(body, "New theme") {
		t.Fatal("the new site folder is not used")
	}
	writeFile(t, f.path(filepath.Join("theme", home)), strings.Replace(string(orig), `<section class="intro">`, `<section class="intro"><p>Edited again</p>`, 1))
	wantEventNamed(t, events.next(t), "reload")
	if _, body := f.get("/"); !strings.Contains(body, "Edited again") {
		t.Fatal("an edit in the new site folder is not seen")
	}
}

// TestDevConfigAndContentOneBurst: a change to the config file and to the
// content in one burst (a git checkout writes config.toml, then the
// posts) is one rebuild from the new config over all the new posts: no
// snapshot from the new config over half the posts is served on the way.
func TestDevConfigAndContentOneBurst(t *testing.T) {
	f := startDev(t, newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")}), nil)
	before := f.count()
	const n = 200
	f.write("config.toml", devConfig+"description = \"Checked out\"\n")
	for i := range n {
		f.write(fmt.Sprintf("content/blog/p%03d.md", i), post(fmt.Sprintf("P%d", i), "2026-01-01T00:00:00Z"))
	}
	f.waitSnap("the new config over every new post", func(s *pipeline.Snapshot) bool {
		return s.Config().Description == "Checked out" && s.Post(fmt.Sprintf("p%03d", n-1)) != nil
	})
	got := f.afterSettling(before)
	if len(got) != 1 {
		t.Fatalf("%d snapshots for one burst over the config and %d posts, want 1: %s", len(got), n, summarize(got))
	}
	if s := got[0]; s.Config().Description != "Checked out" || len(s.Posts()) != n+1 {
		t.Errorf("the snapshot has description %q and %d posts, want \"Checked out\" and %d", s.Config().Description, len(s.Posts()), n+1)
	}
}

// summarize describes snapshots by their config and post count: describe
// would list hundreds of posts.
func summarize(snaps []*pipeline.Snapshot) string {
	var b strings.Builder
	for _, s := range snaps {
		fmt.Fprintf(&b, "\n  #%d: description %q, %d posts", s.ID(), s.Config().Description, len(s.Posts()))
	}
	return b.String()
}
