// Package filehist makes random histories of file operations on a
// content folder, for the tests that hold an incrementally updated
// snapshot to a fresh build of the same folder (pipeline's
// TestUpdateConverges, host's TestDevConverges): create, write, append,
// rename over, delete, make and remove folders, rename a folder, atomic
// saves, broken posts, bundle resources. A seed gives the same history
// on every machine.
package filehist

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// Broken marks the title of a post whose date does not parse.
const Broken = "BROKEN"

// A Gen makes the operations, under Root (a site's content folder).
type Gen struct {
	t    testing.TB
	r    *rand.Rand
	root string
	// prefix is Root's path in the site, for the paths an operation
	// returns ("content").
	prefix string
	// sections are the top-level folders files go in; the first is the
	// one folders are made and removed in.
	sections []string
	n        int
	// Log is what was done, a line an operation.
	Log []string
}

// New returns a generator for the content folder root, at prefix in its
// site, with the given seed. Files go in the sections' folders ("blog",
// and more to let another section take the main one from it).
func New(t testing.TB, seed uint64, root, prefix string, sections ...string) *Gen {
	if len(sections) == 0 {
		sections = []string{"blog"}
	}
	return &Gen{t: t, r: rand.New(rand.NewPCG(seed, 0x5eed)), root: root, prefix: prefix, sections: sections}
}

// IntN is the history's own random number below n, to decide where the
// bursts end.
func (g *Gen) IntN(n int) int { return g.r.IntN(n) }

// Op does one random operation and returns the paths a watcher reports
// for it, relative to the site (nil when nothing happened).
func (g *Gen) Op() []string {
	ops := []func() []string{g.create, g.write, g.write, g.append, g.renameOver, g.remove,
		g.mkdir, g.rmdir, g.renameDir, g.atomicSave, g.broken, g.resource}
	return ops[g.r.IntN(len(ops))]()
}

// FixBroken rewrites every broken file with a valid post (a broken post
// keeps its last good version under an update, which a fresh build
// cannot know) and returns their paths.
func (g *Gen) FixBroken() []string {
	var changed []string
	for _, rel := range g.walk(false) {
		if b, err := os.ReadFile(g.abs(rel)); err == nil && strings.Contains(string(b), Broken) {
			g.note("fix %s", rel)
			changed = append(changed, g.put(rel, g.content())...)
		}
	}
	return changed
}

// Small pools, so that operations collide: renames land on existing
// files, folders become bundles when an index.md appears and sections
// when an _index.md does, a data file holds a post.
func (g *Gen) dir() string {
	main := g.sections[0]
	dirs := append([]string{main, main, main + "/d1", main + "/d2", main + "/d1/e"}, g.sections[1:]...)
	return dirs[g.r.IntN(len(dirs))]
}

func (g *Gen) file() string {
	dir, name := g.dir(), []string{"a.md", "b.md", "c.md", "index.md", "_index.md", "notes.txt", "data.json"}[g.r.IntN(7)]
	if !strings.Contains(dir, "/") && (name == "index.md" || name == "_index.md") {
		name = "e.md" // a section's own index would make it one page, or its list
	}
	return dir + "/" + name
}

func (g *Gen) abs(rel string) string { return filepath.Join(g.root, filepath.FromSlash(rel)) }

func (g *Gen) site(rel ...string) []string {
	out := make([]string, len(rel))
	for i, r := range rel {
		out[i] = path.Join(g.prefix, r)
	}
	return out
}

func (g *Gen) content() string {
	g.n++
	date := time.Date(2020+g.r.IntN(5), time.Month(1+g.r.IntN(12)), 1+g.r.IntN(28), g.r.IntN(24), 0, 0, 0, time.UTC)
	extra := ""
	if g.r.IntN(4) == 0 {
		extra = fmt.Sprintf("slug: s%d\n", g.r.IntN(3))
	}
	if g.r.IntN(3) == 0 {
		extra += "lastmod: " + date.Add(48*time.Hour).Format(time.RFC3339) + "\n"
	}
	return fmt.Sprintf("---\ntitle: \"Post %d\"\ndate: %s\ntags: [t%d, t%d]\n%s---\nBody %d %s\n",
		g.n, date.Format(time.RFC3339), g.r.IntN(4), g.r.IntN(4), extra, g.n, strings.Repeat("x", g.r.IntN(50)))
}

// walk lists the files (or the folders below the sections) under root,
// relative, sorted.
func (g *Gen) walk(dirs bool) []string {
	var out []string
	filepath.WalkDir(g.root, func(p string, d fs.DirEntry, err error) error {
		rel, _ := filepath.Rel(g.root, p)
		rel = filepath.ToSlash(rel)
		if err == nil && d.IsDir() == dirs && (!dirs || strings.Contains(rel, "/")) && (dirs || d.Type().IsRegular()) {
			out = append(out, rel)
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func (g *Gen) pick(list []string) (string, bool) {
	if len(list) == 0 {
		return "", false
	}
	return list[g.r.IntN(len(list))], true
}

func (g *Gen) note(format string, args ...any) { g.Log = append(g.Log, fmt.Sprintf(format, args...)) }

func (g *Gen) must(err error) {
	g.t.Helper()
	if err != nil {
		g.t.Fatal(err)
	}
}

func (g *Gen) put(rel, body string) []string {
	g.must(os.MkdirAll(filepath.Dir(g.abs(rel)), 0o755))
	g.must(os.WriteFile(g.abs(rel), []byte(body), 0o644))
	return g.site(rel)
}

func (g *Gen) create() []string {
	rel := g.file()
	g.note("create %s", rel)
	return g.put(rel, g.content())
}

func (g *Gen) write() []string {
	rel, ok := g.pick(g.walk(false))
	if !ok {
		return nil
	}
	g.note("write %s", rel)
	return g.put(rel, g.content())
}

func (g *Gen) append() []string {
	rel, ok := g.pick(g.walk(false))
	if !ok {
		return nil
	}
	g.note("append %s", rel)
	fh, err := os.OpenFile(g.abs(rel), os.O_WRONLY|os.O_APPEND, 0)
	g.must(err)
	_, err = fmt.Fprintf(fh, "more %d\n", g.r.IntN(1000))
	g.must(err)
	g.must(fh.Close())
	return g.site(rel)
}

func (g *Gen) renameOver() []string {
	from, ok := g.pick(g.walk(false))
	if !ok {
		return nil
	}
	to := g.file()
	if g.r.IntN(2) == 0 {
		if other, ok := g.pick(g.walk(false)); ok {
			to = other
		}
	}
	g.note("rename %s %s", from, to)
	g.must(os.MkdirAll(filepath.Dir(g.abs(to)), 0o755))
	g.must(os.Rename(g.abs(from), g.abs(to)))
	return g.site(from, to)
}

func (g *Gen) remove() []string {
	rel, ok := g.pick(g.walk(false))
	if !ok {
		return nil
	}
	g.note("remove %s", rel)
	g.must(os.Remove(g.abs(rel)))
	return g.site(rel)
}

func (g *Gen) mkdir() []string {
	rel := g.dir() + "/" + []string{"m1", "m2"}[g.r.IntN(2)] + "/" + []string{"index.md", "a.md", "b.md"}[g.r.IntN(3)]
	g.note("mkdir+create %s", rel)
	return g.put(rel, g.content())
}

func (g *Gen) rmdir() []string {
	rel, ok := g.pick(g.walk(true))
	if !ok {
		return nil
	}
	g.note("rmdir -r %s", rel)
	g.must(os.RemoveAll(g.abs(rel)))
	return g.site(rel)
}

func (g *Gen) renameDir() []string {
	from, ok := g.pick(g.walk(true))
	if !ok {
		return nil
	}
	to := g.sections[0] + "/" + []string{"r1", "r2", "d1", "d2"}[g.r.IntN(4)]
	if to == from || strings.HasPrefix(to+"/", from+"/") {
		return nil
	}
	if os.Rename(g.abs(from), g.abs(to)) != nil {
		return nil // the target is a folder with files in it: nothing happened
	}
	g.note("rename dir %s %s", from, to)
	return g.site(from, to)
}

// atomicSave writes a hidden temporary file and renames it over the
// target, as atomic-write libraries and many editors do.
func (g *Gen) atomicSave() []string {
	rel := g.file()
	if old, ok := g.pick(g.walk(false)); ok && g.r.IntN(2) == 0 {
		rel = old
	}
	tmp := path.Join(path.Dir(rel), "."+path.Base(rel)+".tmp"+fmt.Sprint(g.r.IntN(1e6)))
	g.note("atomic save %s", rel)
	g.put(tmp, g.content())
	g.must(os.Rename(g.abs(tmp), g.abs(rel)))
	return g.site(tmp, rel)
}

func (g *Gen) broken() []string {
	rel := g.file()
	if old, ok := g.pick(g.walk(false)); ok && g.r.IntN(2) == 0 {
		rel = old
	}
	g.note("break %s", rel)
	return g.put(rel, "---\ntitle: "+Broken+"\ndate: not a date\n---\n")
}

func (g *Gen) resource() []string {
	rel := g.dir() + "/" + []string{"img.svg", "data.json"}[g.r.IntN(2)]
	g.note("resource %s", rel)
	return g.put(rel, fmt.Sprint(g.r.IntN(1000)))
}
