package pipeline

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"
)

// locking is a MapFS whose folders in locked cannot be listed, as a
// folder without the read permission (which root reads through, so a
// test cannot chmod its way there).
type locking struct {
	fstest.MapFS
	locked map[string]bool
}

func (l locking) ReadDir(name string) ([]fs.DirEntry, error) {
	if l.locked[name] {
		return nil, &fs.PathError{Op: "readdirent", Path: name, Err: fs.ErrPermission}
	}
	return l.MapFS.ReadDir(name)
}

func (l locking) Open(name string) (fs.File, error) {
	if l.locked[name] {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrPermission}
	}
	return l.MapFS.Open(name)
}

// TestUnreadableFolderIsAProblem (issue 15, finding 15): a folder of the
// content that cannot be read, a group of posts or a bundle's subfolder,
// is a problem naming it, where it was skipped without a word; once it
// can be read, the update brings its posts and clears the problem.
func TestUnreadableFolderIsAProblem(t *testing.T) {
	fsys := threePosts()
	set(fsys, "blog/2024/old.md", post())
	set(fsys, "blog/trip/photos/1.jpg", "jpg")
	l := locking{MapFS: fsys, locked: map[string]bool{"blog/2024": true, "blog/trip/photos": true}}
	s, err := Build(l, testConfig(t), Options{Root: "content"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range s.Problems() {
		got = append(got, p.String())
	}
	want := []string{
		"content/blog/2024:1: folder cannot be read (permission denied): the pages and files in it are left out",
		"content/blog/trip/photos:1: folder cannot be read (permission denied): the pages and files in it are left out",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("problems:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s.Post("old") != nil {
		t.Error("a post in the unreadable folder is published")
	}

	clear(l.locked) // the snapshot holds l, and so this map
	s, err = s.Update([]string{"blog/2024", "blog/trip/photos"}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Problems()) != 0 || s.Post("old") == nil || len(s.Post("trip").Resources) == 0 {
		t.Errorf("readable again: problems %v, old %v, trip's files %q", s.Problems(), s.Post("old") != nil, s.Post("trip").Resources)
	}
}
