package host

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
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
		{"posts deep in the section", map[string]string{"blog/2024/01/a.md": post, "blog/2024/x.png": "png", "posts/b.md": post}, ""},
		{"the section's only post in a hidden folder", map[string]string{"blog/.drafts/a.md": post, "blog/a/x.png": "png", "posts/b.md": post},
			`no posts in DIR/blog/; DIR/posts/ has 1 Markdown file (set section = "posts" in site.toml)`},
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

// denying is a MapFS whose files in denied cannot be opened, as a file
// without the read permission (root reads through chmod 000).
type denying struct {
	fstest.MapFS
	denied map[string]bool
}

func (d denying) Open(name string) (fs.File, error) {
	if d.denied[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return d.MapFS.Open(name)
}

// TestGateUnreadableFiles (issue 15, finding 15): a bundle file that
// cannot be read is a problem for check and build, naming it, where it
// passed check and answered 500 in serve for as long as it stayed so.
func TestGateUnreadableFiles(t *testing.T) {
	post := "---\ntitle: T\ndate: 2024-01-02\n---\nBody.\n"
	fsys := denying{MapFS: fstest.MapFS{
		"blog/trip/index.md":   {Data: []byte(post)},
		"blog/trip/photo.png":  {Data: []byte("png")},
		"blog/trip/secret.txt": {Data: []byte("x")},
		"blog/other.md":        {Data: []byte(post)},
	}, denied: map[string]bool{"blog/trip/secret.txt": true}}
	cfg := pipeline.DefaultConfig()
	cfg.ContentDir = "content"
	snap, err := pipeline.Build(fsys, cfg, pipeline.Options{Root: "content"}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range unreadableFiles(snap) {
		got = append(got, p.String())
	}
	want := "content/blog/trip/secret.txt:1: file cannot be read (permission denied): serve answers 500 for it and build stops on it"
	if strings.Join(got, "\n") != want {
		t.Errorf("gate: %q, want %q", got, want)
	}
}
