package host

import (
	"bytes"
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"folio/pipeline"
	"folio/site"
	"folio/watch"
)

// TestDevConfigChanges: a config change rebuilds everything; a bad config
// keeps the old snapshot and shows the error; an unknown key is a warning
// shown beside the new snapshot; a new section moves the posts, and the
// browsers reload into it.
func TestDevConfigChanges(t *testing.T) {
	f := startDev(t, newDevDir(t, map[string]string{
		"content/blog/x.md":  post("X", "2026-01-01T00:00:00Z"),
		"content/notes/y.md": post("Y", "2026-01-01T00:00:00Z"),
	}), nil)
	events := f.openEvents("")
	config := f.path("config.toml")

	f.write("config.toml", devConfig+"description = \"Now described\"\n")
	s := f.waitSnap("the new config", func(s *pipeline.Snapshot) bool { return s.Config().Description == "Now described" })
	wantReloadOf(t, events.next(t), s)
	if _, body := f.get("/"); !strings.Contains(body, "Now described") {
		t.Error("the home page does not show the new description")
	}

	for _, tc := range []struct {
		name, config string
		line         int
		message      string
	}{
		{"syntax", devConfig + "title = \n", 3, ""},
		{"missing content folder", "contentDir = \"nowhere\"\n", 1, "nowhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.h.Snapshot()
			f.write("config.toml", tc.config)
			ev := events.next(t)
			wantEventNamed(t, ev, "problems")
			var problems []pipeline.Problem
			must(t, json.Unmarshal([]byte(ev.Data), &problems))
			if len(problems) != 1 || problems[0].Path != config || problems[0].Line != tc.line || !strings.Contains(problems[0].Message, tc.message) {
				t.Fatalf("problems %+v, want %s:%d: …%s…", problems, config, tc.line, tc.message)
			}
			if f.h.Snapshot() != before {
				t.Error("a bad config replaced the snapshot")
			}
			if resp, _ := f.get("/blog/x/"); resp.StatusCode != 200 {
				t.Errorf("the old snapshot is not served: %d", resp.StatusCode)
			}
			f.write("config.toml", devConfig)
			wantEventNamed(t, events.next(t), "clear")
			wantEventNamed(t, events.next(t), "reload")
		})
	}

	t.Run("unknown key", func(t *testing.T) {
		f.write("config.toml", devConfig+"colour = \"red\"\n")
		ev := events.next(t)
		wantEventNamed(t, ev, "problems")
		var problems []pipeline.Problem
		must(t, json.Unmarshal([]byte(ev.Data), &problems))
		if len(problems) != 1 || problems[0].Path != config || problems[0].Line != 3 ||
			problems[0].Severity != pipeline.Warning || !strings.Contains(problems[0].Message, "unknown key colour") {
			t.Fatalf("problems %+v, want a warning at %s:3 (its own line, 37a690f)", problems, config)
		}
		wantEventNamed(t, events.next(t), "reload") // Hugo accepts it: the config applies
		f.write("config.toml", devConfig)
		wantEventNamed(t, events.next(t), "clear")
		wantEventNamed(t, events.next(t), "reload")
	})

	t.Run("new section", func(t *testing.T) {
		f.write("config.toml", devConfig+"section = \"notes\"\n")
		// The same server answers the new section's routes; the browser
		// is told to reload on the stream it has.
		s := f.waitSnap("the notes section", func(s *pipeline.Snapshot) bool { return s.Config().Section == "notes" })
		wantReloadOf(t, events.next(t), s)
		if resp, _ := f.get("/notes/y/"); resp.StatusCode != 200 {
			t.Errorf("/notes/y/: %d", resp.StatusCode)
		}
		if resp, body := f.get("/api/posts.json"); resp.StatusCode != 200 || strings.Contains(body, "/blog/x/") || !strings.Contains(body, "/notes/y/") {
			t.Errorf("posts after the section moved: %d %s", resp.StatusCode, body)
		}
		if resp, _ := f.get("/blog/x/"); resp.StatusCode != 200 {
			t.Errorf("/blog/x/, a page of another section, after the section moved: %d", resp.StatusCode)
		}
		again := f.openEvents("?since=stale")
		wantReloadOf(t, again.next(t), s)
		f.write("content/notes/y.md", post("Y2", "2026-01-01T00:00:00Z"))
		f.waitSnap("Y2", func(s *pipeline.Snapshot) bool { return titleOf(s, "y") == "Y2" })
	})
}

// TestDevSiteChanges: with siteDir set, a template change reloads the
// theme; a broken template keeps the old theme and shows the error at its
// file and line; the fix clears it.
func TestDevSiteChanges(t *testing.T) {
	dir := newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")})
	copySite(t, filepath.Join(dir, "theme"))
	writeFile(t, filepath.Join(dir, "config.toml"), devConfig+"siteDir = \"theme\"\n")
	f := startDev(t, dir, nil)
	events := f.openEvents("")
	home := f.path("theme/templates/home.html")
	orig, err := os.ReadFile(home)
	must(t, err)

	f.write("theme/templates/home.html", strings.Replace(string(orig), `<section class="intro">`, `<section class="intro"><p>Theme edited</p>`, 1))
	wantEventNamed(t, events.next(t), "reload")
	if _, body := f.get("/"); !strings.Contains(body, "Theme edited") {
		t.Fatal("the edited template is not used")
	}

	f.write("theme/templates/home.html", "{{define \"main\"}}\n<p>\n{{.Nope | nofunc}}\n{{end}}\n")
	ev := events.next(t)
	wantEventNamed(t, ev, "problems")
	var problems []pipeline.Problem
	must(t, json.Unmarshal([]byte(ev.Data), &problems))
	if len(problems) != 1 || problems[0].Path != home || problems[0].Line != 3 || !strings.Contains(problems[0].Message, "nofunc") {
		t.Fatalf("problems %+v, want %s:3 about nofunc", problems, home)
	}
	if resp, body := f.get("/"); resp.StatusCode != 200 || !strings.Contains(body, "Theme edited") {
		t.Errorf("the old theme is not kept: %d", resp.StatusCode)
	}

	f.write("theme/templates/home.html", string(orig))
	wantEventNamed(t, events.next(t), "clear")
	wantEventNamed(t, events.next(t), "reload")
	if _, body := f.get("/"); strings.Contains(body, "Theme edited") {
		t.Error("the fixed template is not used")
	}

	// A template that parses but fails when it runs is found before it
	// is used: the old theme stays and the error is shown.
	f.write("theme/templates/home.html", "{{define \"main\"}}\n<p>{{.NoSuchField}}</p>\n{{end}}\n")
	ev = events.next(t)
	wantEventNamed(t, ev, "problems")
	problems = nil
	must(t, json.Unmarshal([]byte(ev.Data), &problems))
	if len(problems) != 1 || problems[0].Path != home || problems[0].Line != 2 || !strings.Contains(problems[0].Message, "NoSuchField") {
		t.Fatalf("problems %+v, want %s:2 about NoSuchField", problems, home)
	}
	if resp, _ := f.get("/"); resp.StatusCode != 200 {
		t.Errorf("the home page with the old theme kept: %d", resp.StatusCode)
	}
	f.write("theme/templates/home.html", string(orig))
	wantEventNamed(t, events.next(t), "clear")
	wantEventNamed(t, events.next(t), "reload")
}

// TestDevContentFolderReplaced: a content folder removed and made again
// (a git checkout of another branch can do that) is read afresh.
func TestDevContentFolderReplaced(t *testing.T) {
	f := startDev(t, newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")}), nil)
	staged := f.path("staged")
	writeFile(t, filepath.Join(staged, "blog", "y.md"), post("Y", "2026-01-01T00:00:00Z"))
	must(t, os.RemoveAll(f.path("content")))
	must(t, os.Rename(staged, f.path("content")))
	f.waitSnap("the new folder's post", func(s *pipeline.Snapshot) bool { return s.Post("y") != nil && s.Post("x") == nil })
	f.write("content/blog/z.md", post("Z", "2026-01-01T00:00:00Z"))
	f.waitSnap("a post written in the new folder", func(s *pipeline.Snapshot) bool { return s.Post("z") != nil })
}

// TestDevBaseURL: pages link to the bound address even when the config
// has a baseURL, unless --base-url says otherwise.
func TestDevBaseURL(t *testing.T) {
	dir := newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")})
	writeFile(t, filepath.Join(dir, "config.toml"), devConfig+"baseURL = \"https://example.org/\"\n")
	f := startDev(t, dir, nil)
	if got := f.h.Snapshot().Config().BaseURL; got != f.url+"/" {
		t.Errorf("base URL %q, want %q", got, f.url+"/")
	}
	g := startDev(t, dir, func(s *Spec) { s.BaseURL = "https://preview.example.net/" })
	if got := g.h.Snapshot().Config().BaseURL; got != "https://preview.example.net/" {
		t.Errorf("with --base-url: %q", got)
	}
}

func TestDevProblemsFromErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		p    []pipeline.Problem
		want pipeline.Problem
	}{
		{"config line", configProblems(errors.New("site/config.toml:4: expected value"), "site/config.toml"),
			pipeline.Problem{Path: "site/config.toml", Line: 4, Message: "expected value"}},
		{"config key", configProblems(errors.New("config.toml: unknown key colour"), "config.toml"),
			pipeline.Problem{Path: "config.toml", Line: 1, Message: "unknown key colour"}},
		{"config other", configProblems(errors.New("content folder x: no such file"), "config.toml"),
			pipeline.Problem{Path: "config.toml", Line: 1, Message: "content folder x: no such file"}},
		{"template parse", siteProblems(errors.New(`site: templates/home.html: template: home.html:12: function "x" not defined`), "theme"),
			pipeline.Problem{Path: filepath.Join("theme", "templates", "home.html"), Line: 12, Message: `function "x" not defined`}},
		{"layout parse", siteProblems(errors.New(`site: template: base.html:3:7: unexpected "}" in operand`), "theme"),
			pipeline.Problem{Path: filepath.Join("theme", "templates", "base.html"), Line: 3, Message: `unexpected "}" in operand`}},
		{"missing main", siteProblems(errors.New(`site: templates/404.html: no {{define "main"}}`), "theme"),
			pipeline.Problem{Path: filepath.Join("theme", "templates", "404.html"), Line: 1, Message: `no {{define "main"}}`}},
		{"missing file", siteProblems(errors.New(`site: open templates/home.html: file does not exist`), "theme"),
			pipeline.Problem{Path: "theme", Message: `site: open templates/home.html: file does not exist`}}, // a folder: no line
	} {
		if len(tc.p) != 1 || tc.p[0] != tc.want {
			t.Errorf("%s: got %+v, want %+v", tc.name, tc.p, tc.want)
		}
	}
}

// copySite writes the embedded theme into dir.
func copySite(t *testing.T, dir string) {
	t.Helper()
	must(t, fs.WalkDir(site.FS, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(site.FS, p)
		if err != nil {
			return err
		}
		writeFile(t, filepath.Join(dir, filepath.FromSlash(p)), string(bytes.Clone(b)))
		return nil
	}))
}

// TestDevRescanKeepsLastGood: a rescan (events were lost) reads the whole
// content folder again, and a post broken meanwhile keeps its last good
// version, as with any other change.
func TestDevRescanKeepsLastGood(t *testing.T) {
	dir := newDevDir(t, map[string]string{
		"content/blog/x.md": post("X", "2026-01-01T00:00:00Z"),
		"content/blog/y.md": post("Y", "2026-01-01T00:00:00Z"),
	})
	h := loadUnrun(t, devSpec(dir))
	writeFile(t, filepath.Join(dir, "content/blog/x.md"), "---\ntitle: X\ndate: never\n---\n")
	writeFile(t, filepath.Join(dir, "content/blog/z.md"), post("Z", "2026-01-01T00:00:00Z"))
	must(t, os.Remove(filepath.Join(dir, "content/blog/y.md")))
	h.apply(h.w.change([]watch.Batch{{Root: h.w.roots.content, Rescan: true}}))
	s := h.Snapshot()
	if titleOf(s, "x") != "X" || s.Post("y") != nil || s.Post("z") == nil || len(s.Problems()) != 1 {
		t.Errorf("after the rescan: %s", describe([]*pipeline.Snapshot{s}))
	}
}
