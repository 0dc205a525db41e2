package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestIncrementalHugoLayouts: over a Hugo site whose shortcode shows, in
// one post's page, what is counted in other posts' bodies (.WordCount,
// .ReadingTime of site.RegularPages), a body edit that changes such a
// count makes that page again: the folder is a cold build's after every
// step. Without such a template, a body edit writes only the post's own
// files.
func TestIncrementalHugoLayouts(t *testing.T) {
	fixBuildInstant(t)
	dir := countsSite(t, "{{ range site.RegularPages }}[{{ .Title }} {{ .WordCount }} {{ .ReadingTime }}]{{ end }}")
	out := filepath.Join(dir, "public")
	build(t, dir, out)
	post := filepath.Join(dir, "content", "blog", "post-07.md")
	grow := func() {
		data, err := os.ReadFile(post)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(post, append(data, strings.Repeat("more ", 300)...), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	steps := []struct {
		name   string
		change func()
		most   int // files written at most, -1: any
	}{
		{"a body edited: its word count changes", grow, -1},
		{"nothing changed", func() {}, 0},
		{"the shortcode no longer counts words", func() {
			write(t, dir, "layouts/shortcodes/counts.html", "{{ range site.RegularPages }}[{{ .Title }}]{{ end }}")
		}, -1},
		{"a body edited again", grow, 6},
	}
	for _, step := range steps {
		t.Run(step.name, func(t *testing.T) {
			step.change()
			msg, _ := buildAsCold(t, dir, out)
			if n := filesWritten(t, msg); step.most >= 0 && n > step.most {
				t.Errorf("%d files written, want at most %d: %s", n, step.most, msg)
			}
		})
	}
}

// TestIncrementalWordCountByName: sort and where call a page's method by
// the name they are given, so a template that sorts or filters pages by
// "WordCount" or "ReadingTime" counts words as .WordCount does: a body
// edit that moves a post into such a list makes the page holding it
// again.
func TestIncrementalWordCountByName(t *testing.T) {
	fixBuildInstant(t)
	for _, shortcode := range []string{
		`{{ range first 3 (sort site.RegularPages "WordCount" "desc") }}[{{ .Title }}]{{ end }}`,
		`{{ range where site.RegularPages "WordCount" "gt" 382 }}[{{ .Title }}]{{ end }}`,
		`{{ range where site.RegularPages "ReadingTime" "gt" 1 }}[{{ .Title }}]{{ end }}`,
	} {
		t.Run(shortcode, func(t *testing.T) {
			// Post 7 grows from 80 words to 385, between posts 38
			// (390) and 37 (380), and to a reading time of 2 minutes.
			dir := countsSite(t, shortcode)
			out := filepath.Join(dir, "public")
			build(t, dir, out)
			before, err := os.ReadFile(filepath.Join(out, "blog", "post-02", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			post := filepath.Join(dir, "content", "blog", "post-07.md")
			data, err := os.ReadFile(post)
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(post, append(data, strings.Repeat("more ", 305)...), 0o644); err != nil {
				t.Fatal(err)
			}
			_, cold := buildAsCold(t, dir, out)
			after, err := os.ReadFile(filepath.Join(cold, "blog", "post-02", "index.html"))
			if err != nil {
				t.Fatal(err)
			}
			if string(before) == string(after) {
				t.Error("the edit did not change the page listing by word count: the test shows nothing")
			}
		})
	}
}

// countsSite writes a Hugo site of 40 posts, post i of 10(i+1) words,
// whose post 2 calls the shortcode counts, made of shortcode. The posts'
// descriptions are in their front matter: an edit of a body leaves every
// field of the posts as it was.
func countsSite(t *testing.T, shortcode string) string {
	t.Helper()
	dir := t.TempDir()
	write(t, dir, "hugo.toml", "baseURL = 'https://blog.example.org/'\ntitle = 'Counts'\n")
	write(t, dir, "layouts/shortcodes/counts.html", shortcode)
	for i := range 40 {
		body := strings.Repeat("word ", 10*(i+1))
		if i == 2 {
			body += "\n\n{{< counts >}}\n"
		}
		write(t, dir, fmt.Sprintf("content/blog/post-%02d.md", i), fmt.Sprintf("---\ntitle: Post %d\ndescription: The post %d.\ndate: 2024-01-%02dT00:00:00Z\ntags: [t%d]\n---\n%s\n", i, i, i%28+1, i%3, body))
	}
	return dir
}
