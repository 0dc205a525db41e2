package main

import (
	"bytes"
	"cmp"
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
	"folio/site"
)

// TestIncrementalEqualsCold: folio build over its previous output holds,
// file for file, the bytes a cold build of the same site holds, after
// each change of a series (edits, deletions, renames, a description made
// from the body, tags, dates, a draft, a bundle's file, a
// config change, a theme change, the output tampered with, a post whose
// date comes, the parse cache corrupt or foreign), and writes only what
// changed: nothing when nothing did, a post's own files when only its
// body did. Each build says how many content files it parsed and how many
// it took from the parse cache: only the changed ones are parsed, a post
// edited twice within a second to the same size included.
func TestIncrementalEqualsCold(t *testing.T) {
	at := fixBuildInstant(t)
	dir := t.TempDir()
	if err := corpus.Write(dir, 30, 7); err != nil {
		t.Fatal(err)
	}
	// llms-full.txt holds only the newest posts that fit in 64 KiB.
	write(t, dir, "hugo.toml", "baseURL = 'https://blog.example.org/'\ntitle = 'Incremental'\n[pagination]\npagerSize = 5\n[folio]\nsiteDir = 'theme'\n[folio.agents]\nfullMaxBytes = 65536\n")
	if err := os.CopyFS(filepath.Join(dir, "theme"), site.FS); err != nil {
		t.Fatal(err)
	}
	blog := filepath.Join(dir, "content", "blog")
	out := filepath.Join(dir, "public")
	build(t, dir, out)
	// The published posts (not drafts, not dated in the future): their
	// pages are in the output.
	var posts []string
	all, _ := filepath.Glob(filepath.Join(blog, "post-*.md"))
	for _, p := range all {
		if _, err := os.Stat(filepath.Join(out, "blog", strings.TrimSuffix(filepath.Base(p), ".md"), "index.html")); err == nil {
			posts = append(posts, p)
		}
	}
	bundles, _ := filepath.Glob(filepath.Join(blog, "post-*", "index.md"))
	if len(posts) < 20 || len(bundles) < 1 {
		t.Fatalf("corpus: %d published posts, %d bundles", len(posts), len(bundles))
	}
	// A post llms-full.txt holds, and one it leaves out.
	full, err := os.ReadFile(filepath.Join(out, "llms-full.txt"))
	if err != nil {
		t.Fatal(err)
	}
	var inFull, outOfFull string
	for _, p := range posts[7:] {
		if bytes.Contains(full, []byte("/blog/"+strings.TrimSuffix(filepath.Base(p), ".md")+"/")) {
			inFull = cmp.Or(inFull, p)
		} else {
			outOfFull = cmp.Or(outOfFull, p)
		}
	}
	if inFull == "" || outOfFull == "" {
		t.Fatalf("llms-full.txt holds all or none of the posts (%d bytes)", len(full))
	}
	appendTo := func(name, text string) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(name, append(data, text...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	replaceIn := func(name, old, new string) {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Contains(data, []byte(old)) {
			t.Fatalf("%s has no %q", name, old)
		}
		if err := os.WriteFile(name, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cache := filepath.Join(dir, ".public.folio-cache")
	var soon time.Time // the publish date of a post scheduled meanwhile
	var twinGz string  // the .gz twin of a post's twin, to go
	steps := []struct {
		name   string
		change func()
		// most is the most files the build may write (-1: any).
		most int
		// says is what the build must say of its parse cache, if anything.
		says string
	}{
		{"nothing changed", func() {}, 0, "0 content files parsed, 30 from the cache"},
		{"a post's body edited", func() { appendTo(posts[3], "\nOne more paragraph, with a [link](https://example.org/).\n") }, 6,
			"1 content file parsed, 29 from the cache"},
		// At once: within the second, the file the same size.
		{"a post's body edited again to the same size", func() { replaceIn(posts[3], "One more paragraph", "One mere paragraph") }, 6,
			"1 content file parsed, 29 from the cache"},
		// A Markdown twin under 1 KiB has no .gz twin: the one it had goes.
		{"a post's body cut short", func() {
			twinGz = filepath.Join(out, "blog", strings.TrimSuffix(filepath.Base(posts[7]), ".md")+".md.gz")
			if _, err := os.Stat(twinGz); err != nil {
				t.Fatalf("before: %v", err)
			}
			data, err := os.ReadFile(posts[7])
			if err != nil {
				t.Fatal(err)
			}
			head, _, ok := bytes.Cut(data[4:], []byte("\n---\n"))
			if !bytes.HasPrefix(data, []byte("---\n")) || !ok {
				t.Fatalf("%s: no front matter between --- lines", posts[7])
			}
			write(t, filepath.Dir(posts[7]), filepath.Base(posts[7]), "---\n"+string(head)+"\n---\nShort.\n")
		}, -1, "1 content file parsed, 29 from the cache"},
		{"nothing changed after it", func() {
			if _, err := os.Stat(twinGz); err == nil {
				t.Fatalf("%s is still there", twinGz)
			}
		}, 0, "0 content files parsed, 30 from the cache"},
		// llms-full.txt is asked again only when a post it is made of
		// changes; its bytes are a cold build's either way.
		{"the body of a post llms-full.txt leaves out edited", func() { appendTo(outOfFull, "\nA paragraph llms-full.txt does not hold.\n") }, 4,
			"1 content file parsed, 29 from the cache"},
		{"the body of a post llms-full.txt holds edited", func() { appendTo(inFull, "\nA paragraph llms-full.txt holds.\n") }, 6,
			"1 content file parsed, 29 from the cache"},
		{"the parse cache corrupted, a post edited", func() {
			data, err := os.ReadFile(cache)
			if err != nil {
				t.Fatal(err)
			}
			data[len(data)/2] ^= 0xff
			write(t, dir, ".public.folio-cache", string(data))
			replaceIn(posts[3], "One mere paragraph", "One more paragraph")
		}, 6, ""},
		{"the parse cache another file", func() { write(t, dir, ".public.folio-cache", "not a cache") }, 0, ""},
		{"a post scheduled in an hour", func() {
			soon = at.Add(time.Hour)
			write(t, dir, "content/blog/soon.md", "---\ntitle: Soon\ndate: "+soon.Format(time.RFC3339)+"\ntags: [soon]\n---\nDue.\n")
		}, -1, "1 content file parsed, 30 from the cache"},
		{"its date passed", func() {
			if _, err := os.Stat(filepath.Join(out, "blog", "soon", "index.html")); err == nil {
				t.Fatal("the scheduled post is out before its date")
			}
			at = soon.Add(time.Second)
		}, -1, "0 content files parsed, 31 from the cache"},
		{"a post's title edited", func() { replaceIn(posts[4], "title: ", "title: Retitled ") }, -1, "1 content file parsed"},
		{"a post deleted", func() { os.Remove(posts[5]) }, -1, "0 content files parsed"},
		{"a post renamed", func() { os.Rename(posts[6], filepath.Join(blog, "renamed-post.md")) }, -1, "1 content file parsed"},
		{"a post added with a new tag", func() {
			write(t, dir, "content/blog/new-post.md", "---\ntitle: New\ndate: 2024-05-06T07:08:09Z\ntags: [brand-new]\n---\nFresh.\n")
		}, -1, "1 content file parsed"},
		// Alias pages come and go with their aliases, and follow their
		// page.
		{"a post with aliases added", func() {
			write(t, dir, "content/blog/aliased.md", "---\ntitle: Aliased\ndate: 2024-05-07T07:08:09Z\naliases: [/old/aliased/, aliased-before, /old/aliased.html]\n---\nMoved here.\n")
		}, -1, "1 content file parsed"},
		{"nothing changed, with aliases", func() {
			aliasPageTo(t, out, "old/aliased/index.html", "/blog/aliased/")
			aliasPageTo(t, out, "blog/aliased-before/index.html", "/blog/aliased/")
			aliasPageTo(t, out, "old/aliased.html", "/blog/aliased/")
		}, 0, "0 content files parsed"},
		{"an alias added", func() {
			replaceIn(filepath.Join(blog, "aliased.md"), "aliases: [", "aliases: [/older/aliased/, ")
		}, -1, "1 content file parsed"},
		{"its slug changed: its aliases go to its new URL", func() {
			aliasPageTo(t, out, "older/aliased/index.html", "/blog/aliased/")
			replaceIn(filepath.Join(blog, "aliased.md"), "title: Aliased", "title: Aliased\nslug: moved-on")
		}, -1, "1 content file parsed"},
		{"an alias removed", func() {
			aliasPageTo(t, out, "older/aliased/index.html", "/blog/moved-on/")
			aliasPageTo(t, out, "blog/aliased-before/index.html", "/blog/moved-on/")
			replaceIn(filepath.Join(blog, "aliased.md"), "/older/aliased/, ", "")
		}, -1, "1 content file parsed"},
		{"an alias at another post's page", func() {
			if _, err := os.Stat(filepath.Join(out, "older", "aliased", "index.html")); err == nil {
				t.Fatal("the removed alias's page is still there")
			}
			// Its page comes first in the site model: it answers there
			// (in serve too), not the alias.
			write(t, dir, "content/blog/a-hidden.md", "---\ntitle: Hidden\ndate: 2024-05-06T07:08:09Z\n---\nA page an alias names.\n")
			replaceIn(filepath.Join(blog, "aliased.md"), "aliases: [", "aliases: [/blog/a-hidden/, ")
		}, -1, "content file"},
		{"that post deleted: the alias answers there", func() {
			if data, err := os.ReadFile(filepath.Join(out, "blog", "a-hidden", "index.html")); err != nil || strings.Contains(string(data), "http-equiv") {
				t.Fatalf("the page an alias names is not the post's: %v %.100s", err, data)
			}
			os.Remove(filepath.Join(blog, "a-hidden.md"))
		}, -1, "0 content files parsed"},
		{"the aliased post made a draft", func() {
			aliasPageTo(t, out, "blog/a-hidden/index.html", "/blog/moved-on/")
			replaceIn(filepath.Join(blog, "aliased.md"), "title: Aliased", "title: Aliased\ndraft: true")
		}, -1, "1 content file parsed"},
		{"the aliased post no longer a draft", func() {
			for _, name := range []string{"old/aliased/index.html", "old/aliased.html", "blog/a-hidden/index.html"} {
				if _, err := os.Stat(filepath.Join(out, filepath.FromSlash(name))); err == nil {
					t.Fatalf("%s: the draft's alias page is still there", name)
				}
			}
			replaceIn(filepath.Join(blog, "aliased.md"), "\ndraft: true", "")
		}, -1, "1 content file parsed"},
		// A description made from the body (none in the front matter):
		// an edit of the body's first words changes what lists show.
		{"a post without a description added", func() {
			write(t, dir, "content/blog/undescribed.md", "---\ntitle: Undescribed\ndate: 2024-06-01T00:00:00Z\ntags: [brand-new]\n---\n"+
				"The first paragraph says what the post is about"+strings.Repeat(", and then some more", 20)+".\n\nThe last paragraph.\n")
		}, -1, "1 content file parsed"},
		{"its first words edited: its description changes", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "says what", "tells what")
		}, -1, "1 content file parsed"},
		{"its last paragraph edited: its description does not", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "The last paragraph.", "The last paragraph, longer now.")
		}, 6, "1 content file parsed"},
		{"its tags edited", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "tags: [brand-new]", "tags: [brand-new, second-tag]")
		}, -1, "1 content file parsed"},
		{"its date moved back", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "date: 2024-06-01", "date: 2016-06-01")
		}, -1, "1 content file parsed"},
		{"made a draft", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "title: Undescribed", "title: Undescribed\ndraft: true")
		}, -1, "1 content file parsed"},
		{"no longer a draft", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "\ndraft: true", "")
		}, -1, "1 content file parsed"},
		{"its publish date put ahead", func() {
			replaceIn(filepath.Join(blog, "undescribed.md"), "title: Undescribed", "title: Undescribed\npublishDate: "+at.Add(24*time.Hour).Format(time.RFC3339))
		}, -1, "1 content file parsed"},
		{"a bundle's file edited", func() {
			write(t, filepath.Dir(bundles[0]), "figure.svg", `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"/>`)
		}, -1, "0 content files parsed"},
		{"the config changed", func() {
			replaceIn(filepath.Join(dir, "hugo.toml"), "title = 'Incremental'", "title = 'Incremental, renamed'")
		}, -1, ""},
		{"the theme changed", func() {
			replaceIn(filepath.Join(dir, "theme", "templates", "article.html"), "<article", "<article data-theme=\"2\"")
		}, -1, "0 content files parsed"},
		// An Org post renders with go-org; its aliases' pages and every
		// alias page are the site's alias template's once it has one,
		// and follow the template and the pages they name.
		{"an Org post added, with an alias", func() {
			write(t, dir, "content/blog/org-post.org", "#+TITLE: In Org\n#+DATE: 2024-05-08\n#+ALIASES: /old/org/\n#+TAGS[]: org brand-new\n\n"+
				"* A heading\nSome *bold* text and a [[https://example.org/][link]]"+strings.Repeat(", and then some more", 20)+".\n\n"+
				"#+BEGIN_SRC go\nx := 1\n#+END_SRC\n\n| a | b |\n|---+---|\n| 1 | 2 |\n")
		}, -1, "1 content file parsed"},
		{"its body edited after its description", func() {
			replaceIn(filepath.Join(blog, "org-post.org"), "| 1 | 2 |", "| 1 | 3 |")
		}, 6, "1 content file parsed"},
		{"an alias template added", func() {
			write(t, dir, "layouts/alias.html", `<!DOCTYPE html><html><head><title>{{ .Title }}</title><meta http-equiv="refresh" content="0; url={{ .Permalink }}"></head></html>`)
		}, -1, ""},
		{"an aliased post retitled: its alias pages say its new title", func() {
			if data, _ := os.ReadFile(filepath.Join(out, "old", "org", "index.html")); !bytes.Contains(data, []byte("<title>In Org</title>")) {
				t.Fatalf("the Org post's alias page is not the template's: %.120q", data)
			}
			replaceIn(filepath.Join(blog, "aliased.md"), "title: Aliased", "title: Aliased, retitled")
		}, -1, "1 content file parsed"},
		{"the alias template edited", func() {
			replaceIn(filepath.Join(dir, "layouts", "alias.html"), "<title>", "<title>Moved: ")
		}, -1, ""},
		{"a file of the output edited", func() {
			appendTo(filepath.Join(out, "index.html"), "tampered")
			appendTo(filepath.Join(out, "old", "aliased", "index.html"), "tampered")
			write(t, out, "stray/file.txt", "not folio's")
		}, -1, "0 content files parsed"},
		// cp -p of another export's file: other bytes of the same size,
		// the modification time kept. (The builds of the step before,
		// this folder's and the cold one's, took longer than a tick of
		// the file system's clock: the status-change time moves.)
		{"a file of the output replaced by another of its size, its time kept", func() {
			name := filepath.Join(out, "blog", strings.TrimSuffix(filepath.Base(posts[8]), ".md"), "index.html")
			info, err := os.Stat(name)
			if err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(name)
			if err != nil {
				t.Fatal(err)
			}
			i := bytes.LastIndex(data, []byte("</"))
			data[i+2] ^= 0x20 // </X>: another case, the same length
			if err := os.WriteFile(name, data, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.Chtimes(name, info.ModTime(), info.ModTime()); err != nil {
				t.Fatal(err)
			}
		}, 2, "0 content files parsed"},
		{"a folder where a file goes, a file where a folder goes", func() {
			os.Remove(filepath.Join(out, "blog", "new-post.md"))
			write(t, out, "blog/new-post.md/index.html", "in the way")
			os.RemoveAll(filepath.Join(out, "tags", "brand-new"))
			write(t, out, "tags/brand-new", "in the way")
		}, -1, "0 content files parsed"},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			msg, _ := buildAsCold(t, dir, out)
			written := filesWritten(t, msg)
			if step.most >= 0 && written > step.most {
				t.Errorf("%d files written, want at most %d: %s", written, step.most, msg)
			}
			if step.says != "" && !strings.Contains(msg, step.says) {
				t.Errorf("the build said %q, want %q in it", msg, step.says)
			}
			if step.says == "" && strings.Contains(msg, "from the cache") {
				t.Errorf("the build read a parse cache it should not have: %s", msg)
			}
		})
	}
}

// aliasPageTo fails unless the export out holds an alias page at name
// (slash-separated) sending the browser to the path target.
func aliasPageTo(t *testing.T, out, name, target string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(name)))
	if err != nil {
		t.Fatalf("no alias page: %v", err)
	}
	if want := `content="0; url=https://blog.example.org` + target + `"`; !strings.Contains(string(data), want) {
		t.Fatalf("%s is no alias page to %s:\n%s", name, target, data)
	}
}

// build runs folio build of the site in dir into out and returns what it
// said.
func build(t *testing.T, dir, out string) string {
	t.Helper()
	var stdout, stderr bytes.Buffer
	code := run(context.Background(), []string{"build", "--source", dir, "--out", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("folio build: exit %d\n%s", code, stderr.String())
	}
	return stderr.String()
}

var writtenCount = regexp.MustCompile(`\((\d+) files? written`)

// filesWritten is how many files a build over a previous one said it
// wrote (-1 when it said nothing of the kind: a cold build).
func filesWritten(t *testing.T, msg string) int {
	t.Helper()
	m := writtenCount.FindStringSubmatch(msg)
	if m == nil {
		t.Fatalf("the build did not update the previous output: %s", msg)
	}
	n, _ := strconv.Atoi(m[1])
	return n
}

// sameTree fails unless the folders a and b hold the same files with
// the same bytes.
func sameTree(t *testing.T, a, b string) {
	t.Helper()
	files := func(root string) map[string][]byte {
		out := map[string][]byte{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = data
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	fa, fb := files(a), files(b)
	var diffs []string
	for name, data := range fa {
		other, ok := fb[name]
		switch {
		case !ok:
			diffs = append(diffs, name+" only in the updated output")
		case !bytes.Equal(data, other):
			diffs = append(diffs, name+" differs")
		}
	}
	for name := range fb {
		if _, ok := fa[name]; !ok {
			diffs = append(diffs, name+" only in the cold build")
		}
	}
	if len(diffs) > 0 {
		if len(diffs) > 20 {
			diffs = append(diffs[:20], "…")
		}
		t.Errorf("the updated output differs from a cold build (%d files):\n%s", len(fb), strings.Join(diffs, "\n"))
	}
	if len(fb) < 100 {
		t.Errorf("the cold build wrote only %d files", len(fb))
	}
}

// write writes text to the file name below dir, making its folders.
func write(t *testing.T, dir, name, text string) {
	t.Helper()
	p := filepath.Join(dir, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestIncrementalCacheSlack: a build over its previous output leaves the
// parse cache as it is while few of its entries went stale (one in 64):
// the output is a cold build's all the same, and the stale files are
// parsed again, until enough of them make the build write it anew.
func TestIncrementalCacheSlack(t *testing.T) {
	dir := t.TempDir()
	if err := corpus.Write(dir, 200, 3); err != nil {
		t.Fatal(err)
	}
	write(t, dir, "hugo.toml", "baseURL = 'https://blog.example.org/'\ntitle = 'Slack'\n[folio]\nsiteDir = 'theme'\n")
	if err := os.CopyFS(filepath.Join(dir, "theme"), site.FS); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "public")
	cache := filepath.Join(dir, ".public.folio-cache")
	// The cache keeps a file's stamp only when the file was written more
	// than 3 s before the build (pipeline's racyWindow); a stamp kept
	// anew counts as stale too. So the corpus is let out of that window
	// first, and only the edits go stale.
	time.Sleep(3500 * time.Millisecond)
	build(t, dir, out)
	posts, _ := filepath.Glob(filepath.Join(dir, "content", "blog", "post-*.md"))
	stamp := func() string {
		info, err := os.Stat(cache)
		if err != nil {
			t.Fatal(err)
		}
		return info.ModTime().String() + strconv.FormatInt(info.Size(), 10)
	}
	parsed := regexp.MustCompile(`(\d+) content files? parsed, (\d+) from the cache`)
	step := func(name string) (n, total int) {
		t.Helper()
		msg := build(t, dir, out)
		cold := filepath.Join(t.TempDir(), "public")
		build(t, dir, cold)
		sameTree(t, out, cold)
		m := parsed.FindStringSubmatch(msg)
		if m == nil {
			t.Fatalf("%s: the build did not say what it parsed: %s", name, msg)
		}
		n, _ = strconv.Atoi(m[1])
		cached, _ := strconv.Atoi(m[2])
		return n, n + cached
	}
	before := stamp()
	for i := 0; ; i++ {
		if i >= len(posts) {
			t.Fatal("the cache was never written again")
		}
		data, err := os.ReadFile(posts[i])
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(posts[i], append(data, "\nEdited.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
		n, total := step("edit " + strconv.Itoa(i+1))
		if n != i+1 {
			t.Errorf("edit %d: %d files parsed, want the %d edited since the cache was written", i+1, n, i+1)
		}
		// Of the 200 files, those with a warning are not cached: one
		// in 64 of the others is 3 or 4.
		if stamp() != before {
			if i+1 < 3 {
				t.Errorf("the cache written again after %d edits of %d files, want one in 64 stale first", i+1, total)
			}
			break
		}
		if (i+1)*64 >= total {
			t.Fatalf("%d edits of %d files and the cache not written again", i+1, total)
		}
		if i == 0 {
			if n, _ := step("nothing changed after one edit"); n != 1 {
				t.Errorf("nothing changed after one edit: %d files parsed, want the one edited", n)
			}
		}
	}
	if n, _ := step("nothing changed after the cache was written"); n != 0 {
		t.Errorf("nothing changed after the cache was written: %d files parsed, want none", n)
	}
}

// TestIncrementalNginx: the nginx config written by a build over a
// previous one, which keeps routes as its record has them, is the one
// the build that recorded them wrote: every kept route's headers are in
// it (a cold build's would differ in Last-Modified; so does the script,
// whose answers made at request time are probed again, with the build's
// time).
func TestIncrementalNginx(t *testing.T) {
	fixBuildInstant(t)
	dir := t.TempDir()
	if err := corpus.Write(dir, 20, 3); err != nil {
		t.Fatal(err)
	}
	out, conf := filepath.Join(dir, "public"), filepath.Join(dir, "nginx", "site.conf")
	nginxBuild := func() string {
		t.Helper()
		code, _, stderr := runCLI(t, "build", "--source", dir, "--out", out, "--nginx", conf)
		if code != 0 {
			t.Fatalf("folio build: exit %d\n%s", code, stderr)
		}
		c, err := os.ReadFile(conf)
		if err != nil {
			t.Fatal(err)
		}
		return string(c)
	}
	first := nginxBuild()
	if again := nginxBuild(); again != first {
		t.Errorf("nothing changed: the nginx config differs from the previous build's (%d bytes, %d)", len(again), len(first))
	}
	posts, _ := filepath.Glob(filepath.Join(dir, "content", "blog", "post-*.md"))
	data, err := os.ReadFile(posts[2])
	if err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Dir(posts[2]), filepath.Base(posts[2]), string(data)+"\nAn added paragraph.\n")
	edited := nginxBuild()
	if again := nginxBuild(); again != edited {
		t.Errorf("nothing changed after an edit: the nginx config differs from the previous build's (%d bytes, %d)", len(again), len(edited))
	}
}

// fixBuildInstant makes every build of the test publish the site as of
// now, to the second, and returns that instant: the builds compared
// must see the same posts published, and on a slow machine a post's
// date between two builds' clocks made them differ. A test moves it on
// with buildInstant itself.
func fixBuildInstant(t *testing.T) time.Time {
	at := time.Now().UTC().Truncate(time.Second)
	old := buildInstant
	t.Cleanup(func() { buildInstant = old })
	buildInstant = func() time.Time { return at }
	return at
}

// buildAsCold builds dir over its previous output out, then cold into a
// folder of its own, and fails the test unless the two folders hold the
// same files with the same bytes. It returns what the build over out
// said, and the cold build's folder.
func buildAsCold(t *testing.T, dir, out string) (msg, cold string) {
	t.Helper()
	msg = build(t, dir, out)
	cold = filepath.Join(t.TempDir(), "public")
	build(t, dir, cold)
	sameTree(t, out, cold)
	t.Log(strings.TrimSpace(msg))
	return msg, cold
}
