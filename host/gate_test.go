package host

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestSectionHint(t *testing.T) {
	post := "---\ntitle: T\ndate: 2024-01-02\n---\n"
	tests := []struct {
		name  string
		files map[string]string
		want  string // with DIR for the content folder
	}{
		{"posts in the section", map[string]string{"blog/a.md": post, "posts/b.md": post}, ""},
		{"a bundle in the section", map[string]string{"blog/a/index.md": post, "posts/b.md": post}, ""},
		{"Hugo's posts folder", map[string]string{"posts/a.md": post, "posts/b.md": post, "posts/c/index.md": post, "posts/c/x.png": "png"},
			`no posts in DIR/blog/; DIR/posts/ has 3 Markdown files (set section = "posts" in site.toml)`},
		{"one file", map[string]string{"notes/a.md": post, "blog/readme.txt": "not a post"},
			`no posts in DIR/blog/; DIR/notes/ has 1 Markdown file (set section = "notes" in site.toml)`},
		{"the fullest folder, then the first by name", map[string]string{"b/1.md": post, "b/2.md": post, "a/1.md": post, "a/2.md": post, "c/1.md": post},
			`no posts in DIR/blog/; DIR/a/ has 2 Markdown files (set section = "a" in site.toml)`},
		{"loose files", map[string]string{"about.md": post, "now.md": post},
			`no posts in DIR/blog/; DIR/ has 2 Markdown files outside any section (posts go in DIR/blog/)`},
		{"a folder that cannot be the section", map[string]string{"api/a.md": post}, ""},
		{"hidden folders", map[string]string{".drafts/a.md": post, "posts/.git/x.md": "x"}, ""},
		{"not Markdown", map[string]string{"posts/a.markdown": post, "posts/b.MD": post}, ""},
		{"a Hugo section's _index.md is no post", map[string]string{"blog/_index.md": post, "posts/a.md": post, "posts/_index.md": post, "posts/b.md~": post},
			`no posts in DIR/blog/; DIR/posts/ has 1 Markdown file (set section = "posts" in site.toml)`},
		{"nothing at all", map[string]string{}, ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			writeTree(t, dir, tc.files)
			want := ""
			if tc.want != "" {
				want = strings.ReplaceAll(tc.want, "DIR", dir)
			}
			if got := SectionHint(dir, "blog", "site.toml"); got != want {
				t.Errorf("hint:\n%s\nwant:\n%s", got, want)
			}
		})
	}
}

// TestSectionHintFollowsALinkedSection: a section folder that is a
// symlink is read through, as the pipeline reads it.
func TestSectionHintFollowsALinkedSection(t *testing.T) {
	dir := t.TempDir()
	writeTree(t, dir, map[string]string{"elsewhere/a.md": "x", "content/posts/b.md": "x"})
	if err := os.Symlink(filepath.Join(dir, "elsewhere"), filepath.Join(dir, "content", "blog")); err != nil {
		t.Skip(err)
	}
	if got := SectionHint(filepath.Join(dir, "content"), "blog", "config.toml"); got != "" {
		t.Errorf("hint %q for a linked section that has posts", got)
	}
}
