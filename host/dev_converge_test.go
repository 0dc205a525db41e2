package host

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"folio/pipeline"
)

// TestDevConverges: after any sequence of file operations, once things
// are quiet, the snapshot folio dev serves equals a fresh full build of
// the same folder. Operations are random (create, write, append, rename
// over, delete, mkdir, rmdir, rename a folder, atomic saves, broken
// files, bundle resources), with bursts ended at random (settle), so
// that some operations fall into one burst and some into several, the
// same for a seed on every machine. Broken files are fixed at the end: a
// broken post keeps its last good version in dev, which a fresh build
// cannot know.
//
// Seeds: 4 by default, 40 with CI=true; FOLIO_SEED=n runs that seed
// alone.
func TestDevConverges(t *testing.T) {
	seeds := 4
	if os.Getenv("CI") == "true" {
		seeds = 40
	}
	first := uint64(1)
	if s := os.Getenv("FOLIO_SEED"); s != "" {
		fmt.Sscan(s, &first)
		seeds = 1
	}
	for seed := first; seed < first+uint64(seeds); seed++ {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) { converge(t, seed) })
	}
}

func converge(t *testing.T, seed uint64) {
	f := startDev(t, newDevDir(t, nil), nil)
	g := &fileGen{t: t, r: rand.New(rand.NewPCG(seed, 0x5eed)), root: f.path("content")}
	for range 3 + g.r.IntN(5) {
		g.op()
	}
	for range 4 {
		for range 5 + g.r.IntN(20) {
			g.op()
			if g.r.IntN(4) == 0 {
				f.settle()
			}
		}
		f.settle()
	}
	g.fixBroken()
	f.afterSettling(0) // every change before the marker is applied
	served := f.h.Snapshot()
	fsys, err := os.DirFS(served.Config().Root()), error(nil)
	must(t, err)
	fresh, err := pipeline.Build(fsys, served.Config(), served.Options(), served.Now())
	must(t, err)
	if got, want := summary(served), summary(fresh); got != want {
		t.Fatalf("seed %d: served snapshot differs from a fresh build\nops:\n%s\nserved:\n%s\nfresh:\n%s",
			seed, strings.Join(g.log, "\n"), got, want)
	}
}

// summary renders what a snapshot serves, for comparison.
func summary(s *pipeline.Snapshot) string {
	var b strings.Builder
	for _, p := range s.Posts() {
		fmt.Fprintf(&b, "%s %q %s %s file=%s bundle=%s res=%v tags=%v hash=%x\n", p.Slug, p.Title,
			p.Date.Format(time.RFC3339), p.Lastmod.Format(time.RFC3339), p.File, p.Bundle, p.Resources, p.Tags, p.Hash)
	}
	for _, p := range s.Problems() {
		fmt.Fprintf(&b, "problem %s\n", p)
	}
	return b.String()
}

// fileGen makes random file operations under root (the content folder).
type fileGen struct {
	t    *testing.T
	r    *rand.Rand
	root string
	n    int
	log  []string
}

const brokenMark = "BROKEN"

func (g *fileGen) op() {
	ops := []func(){g.create, g.write, g.write, g.append, g.renameOver, g.remove,
		g.mkdir, g.rmdir, g.renameDir, g.atomicSave, g.broken, g.resource}
	ops[g.r.IntN(len(ops))]()
}

// Names come from small pools so that operations collide: renames land
// on existing files, posts in subfolders share slugs with others, folders
// become bundles when an index.md appears. (Not the section folder
// itself: its index.md would make the whole section one page, as in Hugo,
// and hide the marker the test waits for.)
func (g *fileGen) dir() string {
	dirs := []string{"blog", "blog", "blog", "blog/d1", "blog/d2", "blog/d1/e"}
	return dirs[g.r.IntN(len(dirs))]
}

func (g *fileGen) name() string {
	names := []string{"a.md", "b.md", "c.md", "d.md", "index.md", "notes.txt"}
	return names[g.r.IntN(len(names))]
}

// file is a path from the pools: a name in a folder.
func (g *fileGen) file() string {
	dir, name := g.dir(), g.name()
	if dir == "blog" && name == "index.md" {
		name = "e.md"
	}
	return dir + "/" + name
}

func (g *fileGen) abs(rel string) string { return filepath.Join(g.root, filepath.FromSlash(rel)) }

func (g *fileGen) content() string {
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

// files lists the regular files under root, relative, sorted.
func (g *fileGen) files() []string {
	var out []string
	filepath.WalkDir(g.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ := filepath.Rel(g.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func (g *fileGen) dirs() []string {
	var out []string
	filepath.WalkDir(g.root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() && p != g.root && p != filepath.Join(g.root, "blog") {
			rel, _ := filepath.Rel(g.root, p)
			out = append(out, filepath.ToSlash(rel))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

func (g *fileGen) pick(list []string) (string, bool) {
	if len(list) == 0 {
		return "", false
	}
	return list[g.r.IntN(len(list))], true
}

func (g *fileGen) note(format string, args ...any) {
	g.log = append(g.log, fmt.Sprintf(format, args...))
}

func (g *fileGen) put(rel, body string) {
	must(g.t, os.MkdirAll(filepath.Dir(g.abs(rel)), 0o755))
	must(g.t, os.WriteFile(g.abs(rel), []byte(body), 0o644))
}

func (g *fileGen) create() {
	rel := g.file()
	g.note("create %s", rel)
	g.put(rel, g.content())
}

func (g *fileGen) write() {
	if rel, ok := g.pick(g.files()); ok {
		g.note("write %s", rel)
		g.put(rel, g.content())
	}
}

func (g *fileGen) append() {
	if rel, ok := g.pick(g.files()); ok {
		g.note("append %s", rel)
		fh, err := os.OpenFile(g.abs(rel), os.O_WRONLY|os.O_APPEND, 0)
		must(g.t, err)
		_, err = fmt.Fprintf(fh, "more %d\n", g.r.IntN(1000))
		must(g.t, err)
		must(g.t, fh.Close())
	}
}

func (g *fileGen) renameOver() {
	from, ok := g.pick(g.files())
	if !ok {
		return
	}
	to := g.file()
	if g.r.IntN(2) == 0 {
		if other, ok := g.pick(g.files()); ok {
			to = other
		}
	}
	g.note("rename %s %s", from, to)
	must(g.t, os.MkdirAll(filepath.Dir(g.abs(to)), 0o755))
	must(g.t, os.Rename(g.abs(from), g.abs(to)))
}

func (g *fileGen) remove() {
	if rel, ok := g.pick(g.files()); ok {
		g.note("remove %s", rel)
		must(g.t, os.Remove(g.abs(rel)))
	}
}

func (g *fileGen) mkdir() {
	rel := g.dir() + "/" + []string{"m1", "m2"}[g.r.IntN(2)]
	g.note("mkdir+create %s", rel)
	must(g.t, os.MkdirAll(g.abs(rel), 0o755))
	g.put(rel+"/"+g.name(), g.content())
}

func (g *fileGen) rmdir() {
	if rel, ok := g.pick(g.dirs()); ok {
		g.note("rmdir -r %s", rel)
		must(g.t, os.RemoveAll(g.abs(rel)))
	}
}

func (g *fileGen) renameDir() {
	from, ok := g.pick(g.dirs())
	if !ok {
		return
	}
	to := "blog/" + []string{"r1", "r2", "d1", "d2"}[g.r.IntN(4)]
	if to == from || strings.HasPrefix(to+"/", from+"/") {
		return
	}
	if err := os.Rename(g.abs(from), g.abs(to)); err == nil {
		g.note("rename dir %s %s", from, to)
	} // else: the target is a non-empty folder; nothing happened
}

// atomicSave writes a hidden temporary file and renames it over the
// target, as atomic-write libraries and many editors do.
func (g *fileGen) atomicSave() {
	rel := g.file()
	if old, ok := g.pick(g.files()); ok && g.r.IntN(2) == 0 {
		rel = old
	}
	g.note("atomic save %s", rel)
	tmp := filepath.Join(filepath.Dir(g.abs(rel)), "."+filepath.Base(rel)+".tmp"+fmt.Sprint(g.r.IntN(1e6)))
	must(g.t, os.MkdirAll(filepath.Dir(tmp), 0o755))
	must(g.t, os.WriteFile(tmp, []byte(g.content()), 0o644))
	must(g.t, os.Rename(tmp, g.abs(rel)))
}

func (g *fileGen) broken() {
	rel := g.file()
	if old, ok := g.pick(g.files()); ok && g.r.IntN(2) == 0 {
		rel = old
	}
	g.note("break %s", rel)
	g.put(rel, "---\ntitle: "+brokenMark+"\ndate: not a date\n---\n")
}

func (g *fileGen) resource() {
	rel := g.dir() + "/" + []string{"img.svg", "data.json"}[g.r.IntN(2)]
	g.note("resource %s", rel)
	g.put(rel, fmt.Sprint(g.r.IntN(1000)))
}

// fixBroken rewrites every broken file with a valid post.
func (g *fileGen) fixBroken() {
	for _, rel := range g.files() {
		b, err := os.ReadFile(g.abs(rel))
		must(g.t, err)
		if strings.Contains(string(b), brokenMark) {
			g.note("fix %s", rel)
			g.put(rel, g.content())
		}
	}
}
