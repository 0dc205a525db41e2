package main

import (
	"cmp"
	"fmt"
	"io"
	"slices"
	"time"

	"folio/pipeline"
	"folio/render"
)

// runCheck parses and renders everything and prints each problem as
// path:line: message, then "N posts, M problems" (N = published posts).
// With -v it also lists on stderr each published post as it was loaded,
// then each post left out and why (draft, scheduled, expired).
// Exit 1 when there is any problem.
func runCheck(o *options, stdout, stderr io.Writer) int {
	snap, err := loadSnapshot(o, false)
	if err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return exitCode(err)
	}
	if o.verbose {
		for _, p := range snap.Posts() {
			fmt.Fprintf(stderr, "ok %s -> %s\n", snap.DisplayPath(p.File), snap.Config().AbsURL(p.Path(snap.Config().Section)))
		}
		for _, p := range snap.AllPosts() {
			if why := unpublished(p, snap.Now(), snap.Config().Location); why != "" {
				fmt.Fprintf(stderr, "skip %s: %s\n", snap.DisplayPath(p.File), why)
			}
		}
	}
	problems := slices.Concat(snap.Problems(), renderProblems(snap), gateProblems(snap, o))
	slices.SortStableFunc(problems, func(a, b pipeline.Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	for _, p := range problems {
		fmt.Fprintln(stdout, p)
	}
	fmt.Fprintf(stdout, "%d posts, %d problems\n", len(snap.Posts()), len(problems))
	if len(problems) > 0 {
		return 1
	}
	return 0
}

// unpublished says why p is not published at now ("" when it is): what
// check -v prints for the posts it leaves out, so that "N posts" adds up.
// Times are in the site's timeZone, as the author wrote them.
func unpublished(p *pipeline.Post, now time.Time, loc *time.Location) string {
	const minute = "2006-01-02 15:04 MST"
	switch {
	case p.Published(now):
		return ""
	case p.Draft:
		return "draft"
	case !p.Expiry.IsZero() && p.Expiry.Before(now):
		return "expired " + p.Expiry.In(loc).Format(minute)
	case !p.Expiry.IsZero() && !p.Expiry.After(p.Date):
		return "scheduled for " + p.Date.In(loc).Format(minute) + ", but it expires before that, at " + p.Expiry.In(loc).Format(minute)
	}
	return "scheduled for " + p.Date.In(loc).Format(minute)
}

// gateProblems are what check and build refuse beyond the snapshot's own
// problems: a section left empty while posts sit elsewhere, and slugs the
// static export cannot hold apart. check is the gate before a deploy, so
// it fails on whatever would stop build.
func gateProblems(snap *pipeline.Snapshot, o *options) []pipeline.Problem {
	return slices.Concat(sectionProblems(snap.Config(), configName(o)), slugCaseProblems(snap))
}

// renderProblems renders every published post the way the server does and
// returns what rendering finds: links and refs to unpublished posts.
// (Unknown shortcodes are reported by the pipeline already.)
func renderProblems(snap *pipeline.Snapshot) []pipeline.Problem {
	r, ix := render.ForSnapshot(snap)
	var out []pipeline.Problem
	for _, p := range snap.Posts() {
		for _, is := range r.Render(p, ix).Issues {
			out = append(out, pipeline.Problem{Path: snap.DisplayPath(p.File), Line: is.Line, Message: is.Message})
		}
	}
	return out
}

// loadSnapshot reads config and content and builds the first snapshot. A
// config that does not load or a content folder that is not there is
// errConfig (exit 2); a folder that cannot be read is not.
func loadSnapshot(o *options, drafts bool) (*pipeline.Snapshot, error) {
	cfg, err := loadConfig(o)
	if err != nil {
		return nil, configError{err}
	}
	fsys, err := openContent(cfg.ContentDir)
	if err != nil {
		return nil, configError{err}
	}
	return pipeline.Build(fsys, cfg, pipeline.Options{Root: cfg.ContentDir, Drafts: drafts}, time.Now())
}
