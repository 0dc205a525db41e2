package host

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"folio/internal/filehist"
	"folio/pipeline"
)

// TestDevConverges: after any sequence of file operations, once things
// are quiet, the snapshot folio dev serves equals a fresh full build of
// the same folder. Operations are random (internal/filehist: create,
// write, append, rename over, delete, mkdir, rmdir, rename a folder,
// atomic saves, broken files, bundle resources), with bursts ended at
// random (settle), so
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
	g := filehist.New(t, seed, f.path("content"), "content")
	for range 3 + g.IntN(5) {
		g.Op()
	}
	for range 4 {
		for range 5 + g.IntN(20) {
			g.Op()
			if g.IntN(4) == 0 {
				f.settle()
			}
		}
		f.settle()
	}
	g.FixBroken()
	f.afterSettling(0) // every change before the marker is applied
	served := f.h.Snapshot()
	fsys, err := os.DirFS(served.Config().Root()), error(nil)
	must(t, err)
	fresh, err := pipeline.Build(fsys, served.Config(), served.Options(), served.Now())
	must(t, err)
	if got, want := summary(served), summary(fresh); got != want {
		t.Fatalf("seed %d: served snapshot differs from a fresh build\nops:\n%s\nserved:\n%s\nfresh:\n%s",
			seed, strings.Join(g.Log, "\n"), got, want)
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
