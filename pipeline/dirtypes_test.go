package pipeline

import (
	"errors"
	"io/fs"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"
)

// typedMapFS is a MapFS that lists folders as a DirTypesFS does, with
// entries whose Info fails and is counted: a walk that needs no stamp
// must not ask for one.
type typedMapFS struct {
	fstest.MapFS
	infos *atomic.Int64
	typed *sync.Map // the folders listed by ReadDirTypes
}

func (t typedMapFS) ReadDirTypes(name string) ([]fs.DirEntry, error) {
	t.typed.Store(name, true)
	entries, err := t.MapFS.ReadDir(name)
	for i, e := range entries {
		entries[i] = countedEntry{e, t.infos}
	}
	return entries, err
}

type countedEntry struct {
	fs.DirEntry
	infos *atomic.Int64
}

func (e countedEntry) Info() (fs.FileInfo, error) {
	e.infos.Add(1)
	return nil, errors.New("Info asked of a typed listing")
}

// TestDirTypesFS: a build without a cache, or with an empty one, walks
// the content and lists bundles with ReadDirTypes, asking no entry's
// Info, and makes the snapshot the plain FS makes.
func TestDirTypesFS(t *testing.T) {
	fsys := mapFS(map[string]string{
		"blog/a.md":                post("title: A"),
		"blog/sub/b.md":            post("title: B"),
		"blog/trip/index.md":       post("title: Trip"),
		"blog/trip/p.jpg":          "jpg",
		"blog/trip/.hidden":        "x",
		"blog/trip/notes.md":       "---\ntitle: Notes\n---\n",
		"blog/trip/deep/q.png":     "png",
		"blog/trip/deep/more.md":   "x",
		"blog/trip/deep/.swp/x.md": "x",
		"blog/file.txt":            "t",
	})
	infos := &atomic.Int64{}
	want := build(t, fsys, Options{}, testNow)
	for _, opts := range []Options{{}, {Cache: NewCache([32]byte{1})}} {
		typed := typedMapFS{fsys, infos, &sync.Map{}}
		got, err := Build(typed, testConfig(t), opts, testNow)
		if err != nil {
			t.Fatal(err)
		}
		sameSnapshot(t, got, want)
		if n := infos.Load(); n != 0 {
			t.Errorf("%d entries' Info asked", n)
		}
		for _, dir := range []string{"blog", "blog/sub", "blog/trip", "blog/trip/deep"} {
			if _, ok := typed.typed.Load(dir); !ok {
				t.Errorf("%s not listed by ReadDirTypes", dir)
			}
		}
	}
	typed := typedMapFS{fsys, infos, &sync.Map{}}
	files, contents, locked, _ := listResources(typed, "blog/trip")
	wf, wc, wl, _ := listResources(fsys, "blog/trip")
	if !slices.Equal(files, wf) || !slices.Equal(contents, wc) || !slices.Equal(locked, wl) || len(files) != 2 {
		t.Errorf("bundle files %q %q %q, the plain FS's %q %q %q", files, contents, locked, wf, wc, wl)
	}
}
