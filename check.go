package main

import (
	"context"
	"fmt"
	"slices"
	"time"

	"folio/export"
	"folio/host"
	"folio/pipeline"
	"folio/server"
)

// runCheck loads the site as every command starts, renders every post,
// and prints each problem as path:line: message (a warning's message
// after "warning: "; a warning said at several places is printed once,
// at its first, with how many more), then "N posts, M problems" (N =
// published posts, M the errors; "1 post", "1 problem") and ", K
// warnings" when there are any. With -v it prints every warning, and
// lists on stderr each published post as it was loaded, then each post
// left out and why (draft, scheduled, expired). Exit 1 when there is an
// error; warnings (what Hugo accepts) do not fail.
//
// SIGTERM or Ctrl-C (ctx ends) stops it at once, exit 1, with nothing
// said on stdout.
func runCheck(ctx context.Context, o *options, std stdio) error {
	type checked struct {
		snap     *pipeline.Snapshot
		problems []pipeline.Problem
		left     []export.AliasLeftOut
		err      error
	}
	done := make(chan checked, 1)
	go func() {
		snap, problems, left, err := checkSite(o, std)
		done <- checked{snap, problems, left, err}
	}()
	var c checked
	select {
	case c = <-done:
	case <-ctx.Done():
		return errStopped
	}
	if c.err != nil {
		return c.err
	}
	snap, problems, left := c.snap, c.problems, c.left
	writeProblems(std.out, problems, o.verbose, "folio check -v lists each")
	for _, a := range left {
		fmt.Fprintln(std.out, aliasWarning(a))
	}
	errs := len(pipeline.Errors(problems))
	fmt.Fprintf(std.out, "%s, %s", count(len(snap.Posts()), "post", "posts"), count(errs, "problem", "problems"))
	if warnings := len(problems) - errs + len(left); warnings > 0 {
		fmt.Fprintf(std.out, ", %s", count(warnings, "warning", "warnings"))
	}
	fmt.Fprintln(std.out)
	if errs > 0 {
		return errReported
	}
	return nil
}

// checkSite loads the site and renders every post: the problems check
// prints and the aliases the export would leave out.
func checkSite(o *options, std stdio) (*pipeline.Snapshot, []pipeline.Problem, []export.AliasLeftOut, error) {
	// The start of every command, without the running. Without a base
	// URL, links are resolved as build resolves them (against serve's
	// default address): check finds what build would refuse.
	spec := o.spec()
	spec.Addr, _ = buildAddr("")
	h, err := host.Load(spec)
	if err != nil {
		return nil, nil, nil, err
	}
	snap := h.Snapshot()
	if o.verbose {
		cfg := snap.Config()
		for _, p := range snap.Posts() {
			fmt.Fprintf(std.err, "ok %s -> %s\n", snap.DisplayPath(p.File), cfg.AbsURL(snap.URLOf(p)))
		}
		for _, p := range snap.AllPosts() {
			if why := unpublished(p, snap.Now(), cfg); why != "" {
				fmt.Fprintf(std.err, "skip %s: %s\n", snap.DisplayPath(p.File), why)
			}
		}
	}
	problems := h.Problems(h.RenderAll())
	left, templated, err := aliasesLeftOut(h.Server())
	problems = append(problems, templated...)
	if p, ok := clashProblem(snap, err); ok && len(pipeline.Errors(problems)) == 0 {
		// What build stops with once it gets to the export (after the
		// problems, which may be this one said of the content).
		problems = append(problems, p)
	} else if err != nil && !ok {
		return nil, nil, nil, err
	}
	return snap, problems, left, nil
}

// aliasesLeftOut are the aliases folio build's export would write no
// redirect page for (build says them too, as it writes the export), and
// the warnings of the site's alias template where it fails (once each,
// as build says them); or the error build would stop with when it cannot
// name the routes' files (an *export.NameClash: two routes that would
// share one).
func aliasesLeftOut(srv *server.Server) ([]export.AliasLeftOut, []pipeline.Problem, error) {
	var aliases []export.Alias
	var problems []pipeline.Problem
	for _, a := range srv.ExportAliases() {
		aliases = append(aliases, export.Alias{Path: a.Path, Lang: a.Lang, Source: a.Source, Line: a.Line})
		if a.Problem != nil && !slices.Contains(problems, *a.Problem) {
			problems = append(problems, *a.Problem)
		}
	}
	left, err := export.AliasesLeftOut(srv.ExportPaths(), aliases)
	return left, problems, err
}

// unpublished says why the site does not publish p at now ("" when it
// does): what check -v prints for the posts it leaves out, so that "N
// posts" adds up. Times are in the site's timeZone, as the author wrote
// them.
func unpublished(p *pipeline.Post, now time.Time, cfg *pipeline.Config) string {
	const minute = "2006-01-02 15:04 MST"
	loc := cfg.Location
	switch {
	case cfg.Shows(p, now):
		return ""
	case p.Draft && !cfg.BuildDrafts:
		return "draft"
	case !p.Expiry.IsZero() && p.Expiry.Before(now) && !cfg.BuildExpired:
		return "expired " + p.Expiry.In(loc).Format(minute)
	case !p.Expiry.IsZero() && !p.Expiry.After(p.Date):
		return "scheduled for " + p.Date.In(loc).Format(minute) + ", but it expires before that, at " + p.Expiry.In(loc).Format(minute)
	}
	return "scheduled for " + p.Date.In(loc).Format(minute)
}
