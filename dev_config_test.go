package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io/fs"
	"net"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"folio/pipeline"
	"folio/site"
	"folio/watch"
)

// TestDevConfigChanges: a config change rebuilds everything; a bad config
// keeps the old snapshot and shows the error; a new section moves the
// routes and the browsers.
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
		{"unknown key", devConfig + "colour = \"red\"\n", 3, "unknown key colour"}, // its own line (37a690f)
		{"missing content folder", "contentDir = \"nowhere\"\n", 1, "nowhere"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := f.d.current().Snapshot()
			f.write("config.toml", tc.config)
			ev := events.next(t)
			wantEventNamed(t, ev, "problems")
			var problems []pipeline.Problem
			must(t, json.Unmarshal([]byte(ev.Data), &problems))
			if len(problems) != 1 || problems[0].Path != config || problems[0].Line != tc.line || !strings.Contains(problems[0].Message, tc.message) {
				t.Fatalf("problems %+v, want %s:%d: …%s…", problems, config, tc.line, tc.message)
			}
			if f.d.current().Snapshot() != before {
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

	t.Run("new section", func(t *testing.T) {
		f.write("config.toml", devConfig+"section = \"notes\"\n")
		// The old server's stream ends; the browser reconnects to the new
		// server with its page's version and is told to reload.
		select {
		case <-events.done:
		case <-time.After(devWait):
			t.Fatal("the old server's stream did not end")
		}
		s := f.waitSnap("the notes section", func(s *pipeline.Snapshot) bool { return s.Config().Section == "notes" })
		if resp, _ := f.get("/notes/y/"); resp.StatusCode != 200 {
			t.Errorf("/notes/y/: %d", resp.StatusCode)
		}
		if resp, _ := f.get("/blog/x/"); resp.StatusCode != 404 {
			t.Errorf("/blog/x/ after the section moved: %d", resp.StatusCode)
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
	if got := f.d.current().Snapshot().Config().BaseURL; got != f.url+"/" {
		t.Errorf("base URL %q, want %q", got, f.url+"/")
	}
	g := startDev(t, dir, func(o *options) { o.baseURL = "https://preview.example.net/" })
	if got := g.d.current().Snapshot().Config().BaseURL; got != "https://preview.example.net/" {
		t.Errorf("with --base-url: %q", got)
	}
}

// TestDevStartLine runs the command as main does: the start line names the
// bound port, and cancelling (SIGTERM) ends it with status 0 even with a
// browser connected.
func TestDevStartLine(t *testing.T) {
	dir := newDevDir(t, map[string]string{"content/blog/x.md": post("X", "2026-01-01T00:00:00Z")})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stderr syncBuffer
	done := make(chan int, 1)
	o := &options{command: "dev", config: filepath.Join(dir, "config.toml"), addr: "127.0.0.1:0"}
	go func() { done <- runDev(ctx, o, &stderr, discardLog()) }()
	line := regexp.MustCompile(`^folio: serving (http://127\.0\.0\.1:[1-9][0-9]*/) \(1 posts, built in [0-9.]+[µm]?s\)\n`)
	var m []string
	for deadline := time.Now().Add(devWait); m == nil; time.Sleep(10 * time.Millisecond) {
		if m = line.FindStringSubmatch(stderr.String()); m == nil && time.Now().After(deadline) {
			t.Fatalf("start line: %q", stderr.String())
		}
	}
	f := &devFixture{t: t, url: strings.TrimSuffix(m[1], "/")}
	resp, body := f.get("/_folio/live.js")
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "no-cache" || !strings.Contains(body, "EventSource") {
		t.Fatalf("live.js: %d %v", resp.StatusCode, resp.Header)
	}
	f.openEvents("")
	start := time.Now()
	cancel()
	select {
	case code := <-done:
		if code != 0 {
			t.Errorf("exit %d", code)
		}
	case <-time.After(drainTimeout + 5*time.Second):
		t.Fatal("folio dev did not stop")
	}
	if time.Since(start) > drainTimeout {
		t.Error("the live-reload stream held the shutdown until the drain timeout")
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
			pipeline.Problem{Path: "theme", Line: 1, Message: `site: open templates/home.html: file does not exist`}},
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
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	must(t, err)
	ln.Close()
	d := newDevHost(&options{command: "dev", config: filepath.Join(dir, "config.toml")}, ln.Addr(), discardLog(), time.Now())
	must(t, d.start())
	defer d.w.Close() // no loop: the test applies the batch itself
	writeFile(t, filepath.Join(dir, "content/blog/x.md"), "---\ntitle: X\ndate: never\n---\n")
	writeFile(t, filepath.Join(dir, "content/blog/z.md"), post("Z", "2026-01-01T00:00:00Z"))
	must(t, os.Remove(filepath.Join(dir, "content/blog/y.md")))
	d.apply(context.Background(), []watch.Batch{{Root: d.roots.content, Rescan: true}})
	s := d.current().Snapshot()
	if titleOf(s, "x") != "X" || s.Post("y") != nil || s.Post("z") == nil || len(s.Problems()) != 1 {
		t.Errorf("after the rescan: %s", describe([]*pipeline.Snapshot{s}))
	}
}
