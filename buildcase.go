package main

import (
	"cmp"
	"fmt"
	"slices"

	"folio/export"
	"folio/pipeline"
)

// slugCaseProblems reports published posts whose slugs differ only in case
// ("Case" and "case"). folio serve answers both (slugs are used as
// written), but the static export cannot hold both: on a file system that
// ignores case (macOS, Windows, many upload targets) blog/Case/ and
// blog/case/ are one folder. build refuses such a site up front,
// naming both files, as check names the two files of a duplicate URL.
// The export refuses any two file names that differ only in case; this
// is the same rule for the common case, said in the author's terms.
func slugCaseProblems(snap *pipeline.Snapshot) []pipeline.Problem {
	posts := slices.Clone(snap.Posts())
	slices.SortFunc(posts, func(a, b *pipeline.Post) int { return cmp.Compare(a.File, b.File) })
	first := map[string]*pipeline.Post{} // folded slug → the first post by file
	var out []pipeline.Problem
	sec := snap.Config().Section
	for _, p := range posts {
		k := export.FoldCase(p.Slug)
		q, dup := first[k]
		if !dup {
			first[k] = p
			continue
		}
		out = append(out, pipeline.Problem{
			Path: snap.DisplayPath(p.File),
			Line: 1,
			Message: fmt.Sprintf("slug %q differs only in case from %q of %s: the static export cannot hold both /%s and /%s (one folder where the file system ignores case, as on macOS and Windows); rename one",
				p.Slug, q.Slug, snap.DisplayPath(q.File), p.Path(sec), q.Path(sec)),
		})
	}
	return out
}
