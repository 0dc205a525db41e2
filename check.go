package main

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"folio/host"
	"folio/pipeline"
	"folio/render"
)

// runCheck loads the site as every command starts, renders every post,
// and prints each problem as path:line: message, then "N posts, M
// problems" (N = published posts). With -v it also lists on stderr each
// published post as it was loaded, then each post left out and why
// (draft, scheduled, expired). Exit 1 when there is any problem.
func runCheck(_ context.Context, o *options, std stdio) error {
	h, err := host.Load(o.spec()) // the start of every command, without the running
	if err != nil {
		return err
	}
	snap := h.Snapshot()
	if o.verbose {
		cfg := snap.Config()
		for _, p := range snap.Posts() {
			fmt.Fprintf(std.err, "ok %s -> %s\n", snap.DisplayPath(p.File), cfg.AbsURL(p.Path(cfg.Section)))
		}
		for _, p := range snap.AllPosts() {
			if why := unpublished(p, snap.Now(), cfg.Location); why != "" {
				fmt.Fprintf(std.err, "skip %s: %s\n", snap.DisplayPath(p.File), why)
			}
		}
	}
	problems := slices.Concat(snap.Problems(), renderProblems(snap), host.Gate(snap, host.ConfigFile(o.spec())))
	slices.SortStableFunc(problems, func(a, b pipeline.Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	for _, p := range problems {
		fmt.Fprintln(std.out, p)
	}
	// Warnings (what Hugo accepts and publishes) are listed, never fail.
	errs := len(pipeline.Errors(problems))
	summary := fmt.Sprintf("%d posts, %d problems", len(snap.Posts()), errs)
	if w := len(problems) - errs; w > 0 {
		summary += ", " + count(w, "warning", "warnings")
	}
	fmt.Fprintln(std.out, summary)
	if errs > 0 {
		return errReported
	}
	return nil
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

// renderProblems renders every published post the way the server does and
// returns what rendering finds: links and refs to unpublished posts.
// (Unknown shortcodes are reported by the pipeline already.)
func renderProblems(snap *pipeline.Snapshot) []pipeline.Problem {
	r, ix := render.ForSnapshot(snap)
	var out []pipeline.Problem
	for _, p := range snap.Posts() {
		for _, is := range r.Render(p, ix).Issues {
			out = append(out, pipeline.Problem{Path: snap.DisplayPath(p.File), Line: is.Line, Message: is.Message, Severity: is.Severity})
		}
	}
	return out
}
