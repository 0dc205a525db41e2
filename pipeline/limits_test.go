package pipeline

import (
	"strings"
	"testing"
	"testing/fstest"
)

// A post over MaxPostSize is a problem naming the file, not a post; the
// rest of the site is built as usual.
func TestPostTooLarge(t *testing.T) {
	big := post() + strings.Repeat("word ", MaxPostSize/5+1)
	fsys := fstest.MapFS{
		"blog/big.md": {Data: []byte(big)},
		"blog/ok.md":  {Data: []byte(post())},
	}
	s := build(t, fsys, Options{Root: "content"}, testNow)
	if len(s.posts) != 1 || s.posts[0].Slug != "ok" {
		t.Fatalf("posts = %v, want only ok", slugs(s.posts))
	}
	if len(s.problems) != 1 || s.problems[0].Path != "content/blog/big.md" || s.problems[0].Line != 1 ||
		!strings.Contains(s.problems[0].Message, "post too large") {
		t.Fatalf("problems = %v, want one naming content/blog/big.md as too large", s.problems)
	}
	// At the limit exactly, the post is read.
	fsys["blog/big.md"] = &fstest.MapFile{Data: []byte(big[:MaxPostSize])}
	s = build(t, fsys, Options{Root: "content"}, testNow)
	if len(s.posts) != 2 || len(s.problems) != 0 {
		t.Fatalf("at the limit: %d posts, problems %v", len(s.posts), s.problems)
	}
}

// A YAML front matter with more flow collections than the decoder can
// take in bounded time is a problem on the line that passes the limit;
// one at the limit decodes.
func TestYAMLBracketLimit(t *testing.T) {
	deep := func(n int) string {
		return "---\ntitle: T\ndate: 2024-06-01\nx: " + strings.Repeat("[", n) + strings.Repeat("]", n) + "\n---\nbody\n"
	}
	fsys := fstest.MapFS{
		"blog/deep.md": {Data: []byte(deep(100_000))},
		"blog/ok.md":   {Data: []byte(deep(maxYAMLBrackets))},
	}
	s := build(t, fsys, Options{Root: "content"}, testNow)
	if len(s.posts) != 1 || s.posts[0].Slug != "ok" {
		t.Fatalf("posts = %v, want only ok", slugs(s.posts))
	}
	if len(s.problems) != 1 || s.problems[0].Path != "content/blog/deep.md" || s.problems[0].Line != 4 ||
		!strings.Contains(s.problems[0].Message, "flow collections") {
		t.Fatalf("problems = %v, want one on content/blog/deep.md:4", s.problems)
	}
}
