package watch

import (
	"flag"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"testing"
)

var seeds = flag.Int("seeds", 3, "random sequences TestConverge runs")

// TestConverge runs random sequences of file operations on a real folder
// and checks the Watcher's promise: every path that differs between
// before and after is covered by a delivered path (itself or a folder
// above it), nothing ignored is delivered, and afterwards every folder is
// still watched: rewriting every file reports every file.
func TestConverge(t *testing.T) {
	for seed := range *seeds {
		t.Run(fmt.Sprint("seed", seed), func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			r := rand.New(rand.NewPCG(uint64(seed), 0))
			tree(t, dir, map[string]string{"blog/a.md": "a", "blog/b/index.md": "b", "blog/c/d/e.md": "e"})
			w, _ := start(t, Options{}, dir)
			for range 5 {
				before := state(t, dir)
				for range 40 {
					randomOp(t, r, dir)
				}
				got := collect(t, w)
				checkCovered(t, before, state(t, dir), got)
			}
			// Every folder is watched: rewriting every file reports each.
			after := state(t, dir)
			var want []string
			for p, v := range after {
				if v != "dir" {
					must(t, os.WriteFile(filepath.Join(dir, filepath.FromSlash(p)), []byte(v+"!"), 0o644))
					want = append(want, p)
				}
			}
			got := collect(t, w)
			for _, p := range want {
				if !got[p] {
					t.Errorf("rewrite of %s not reported: its folder is not watched", p)
				}
			}
		})
	}
}

// randomOp performs one file operation on a random path under dir/blog.
func randomOp(t *testing.T, r *rand.Rand, dir string) {
	t.Helper()
	names := []string{"a.md", "b", "c", "d", "x.md", "y.md", "index.md", "img.png"}
	pick := func() string {
		p := "blog"
		for n := 1 + r.IntN(3); n > 0; n-- {
			p = path.Join(p, names[r.IntN(len(names))])
		}
		return filepath.Join(dir, filepath.FromSlash(p))
	}
	p, q := pick(), pick()
	body := []byte(fmt.Sprint("v", r.IntN(1000)))
	switch r.IntN(9) {
	case 0, 1: // create or write
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, body, 0o644)
	case 2: // append
		if f, err := os.OpenFile(p, os.O_WRONLY|os.O_APPEND, 0); err == nil {
			f.Write(body)
			f.Close()
		}
	case 3: // atomic save: hidden temporary file renamed over
		tmp := filepath.Join(filepath.Dir(p), "."+filepath.Base(p)+".tmp42")
		if os.WriteFile(tmp, body, 0o644) == nil {
			os.Rename(tmp, p)
		}
	case 4: // rename (file or folder)
		os.MkdirAll(filepath.Dir(q), 0o755)
		os.Rename(p, q)
	case 5: // delete (file or folder)
		os.RemoveAll(p)
	case 6: // mkdir with files, faster than a watch
		os.MkdirAll(p, 0o755)
		os.WriteFile(filepath.Join(p, "index.md"), body, 0o644)
		os.MkdirAll(filepath.Join(p, "sub"), 0o755)
		os.WriteFile(filepath.Join(p, "sub", "x.md"), body, 0o644)
	case 7: // noise that must not be reported
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p+"~", body, 0o644)
		os.WriteFile(filepath.Join(filepath.Dir(p), ".git"), body, 0o644)
	case 8: // sed -i
		sed := filepath.Join(filepath.Dir(p), "sedR4nd0m")
		if os.WriteFile(sed, body, 0o644) == nil {
			if os.Rename(sed, p) != nil {
				os.Remove(sed)
			}
		}
	}
}

// state maps every path under dir that is not ignored to its content, or
// "dir".
func state(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if DefaultIgnore(rel) {
			return nil
		}
		if d.IsDir() {
			out[rel] = "dir"
			return nil
		}
		b, err := os.ReadFile(p)
		out[rel] = string(b)
		return err
	})
	must(t, err)
	return out
}

// collect ends the burst and gathers what it delivers, if anything; a
// rescan counts as every path.
func collect(t *testing.T, w *Watcher) map[string]bool {
	t.Helper()
	got := map[string]bool{}
	if !syncW(t, w) {
		return got
	}
	for _, b := range receive(t, w) {
		if b.Rescan {
			got["."] = true
		}
		for _, p := range b.Paths {
			if DefaultIgnore(p) {
				t.Errorf("ignored path delivered: %s", p)
			}
			got[p] = true
		}
	}
	return got
}

func checkCovered(t *testing.T, before, after map[string]string, got map[string]bool) {
	t.Helper()
	covered := func(p string) bool {
		for ; p != "."; p = path.Dir(p) {
			if got[p] {
				return true
			}
		}
		return got["."]
	}
	for p, v := range after {
		if before[p] != v && !covered(p) {
			t.Errorf("%s changed (%q → %q) but was not delivered; got %v", p, before[p], v, got)
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok && !covered(p) {
			t.Errorf("%s removed but not delivered", p)
		}
	}
}
