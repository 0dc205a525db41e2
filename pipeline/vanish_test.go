package pipeline

import (
	"io/fs"
	"testing"
	"testing/fstest"
)

// vanishingFS lists gone in its folder but fails to open it, as a file
// deleted between the folder's listing and the read does.
type vanishingFS struct {
	fstest.MapFS
	gone string
}

func (v vanishingFS) Open(name string) (fs.File, error) {
	if name == v.gone {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return v.MapFS.Open(name)
}

// A file that vanishes between the listing and the read is left out of
// Build, as Update leaves it out: no post, no problem, no panic.
func TestBuildFileVanishes(t *testing.T) {
	fsys := vanishingFS{MapFS: mapFS(map[string]string{"blog/a.md": post(), "blog/b.md": post()}), gone: "blog/b.md"}
	s, err := Build(fsys, testConfig(t), Options{}, testNow)
	if err != nil || len(s.posts) != 1 || s.posts[0].Slug != "a" || len(s.problems) != 0 {
		t.Fatalf("Build: %v, posts %v, problems %v; want only a", err, slugs(s.posts), s.problems)
	}
}
