package main

import (
	"context"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"time"

	"folio/export"
	"folio/host"
	"folio/pipeline"
	"folio/server"
)

// runBuild writes the static export: every route the server answers, taken
// from the server's own handler, into --out, and with --nginx the config
// that serves it. A snapshot with problems writes nothing and exits 1, so
// the previous output stays as it was. build is a one-shot command: what
// it says, it says in plain "folio: …" lines, as check does.
func runBuild(_ context.Context, o *options, std stdio) error {
	start := time.Now()
	limits, err := cloudflareFlags(o)
	if err != nil {
		return mistake("%v", err)
	}
	if err := checkNginxPath(o.out, o.nginx); err != nil {
		return mistake("%v", err)
	}
	if err := export.Replaceable(o.out); err != nil {
		return mistake("%v", err) // --out names someone's folder
	}
	spec := o.spec()
	spec.Started = start
	if spec.Addr, err = buildAddr(o.addr); err != nil {
		return mistake("--addr: %v", err)
	}
	// The host is loaded and never run: the export is the site at the
	// snapshot's instant, however long it takes to write, and a post due
	// meanwhile waits for the next build.
	h, err := host.Load(spec)
	if err != nil {
		return err
	}
	snap, srv := h.Snapshot(), h.Server()
	var served net.Addr // an export is served where --addr says, else nowhere yet
	if o.addr != "" {
		served = spec.Addr
	}
	if w := baseWarning(o, snap.Config(), served); w != "" {
		fmt.Fprintln(std.err, w)
	}
	// Rendering finds the rest of the problems (links to posts that are
	// not published, shortcodes that fail) as it makes the pages; the
	// whole list, in check's order, is reported at once, and an error in
	// it fails the build before the export replaces the previous one.
	var problems []pipeline.Problem
	report := func() error {
		for _, p := range problems {
			fmt.Fprintln(std.err, p)
		}
		if errs := len(pipeline.Errors(problems)); errs > 0 {
			return fmt.Errorf("%s; %s left as it was", count(errs, "problem", "problems"), o.dest())
		}
		return nil
	}
	if errs := pipeline.Errors(siteProblems(snap, host.ConfigFile(spec), nil)); len(errs) > 0 {
		// No export for a site with errors already (it may not even be
		// writable); rendering the posts as check does finds the rest.
		problems = siteProblems(snap, host.ConfigFile(spec), renderProblems(snap))
		return report()
	}
	paths := srv.ExportPaths()
	if o.cf != "" {
		if reserved := reservedProblems(snap.Config(), paths); len(reserved) > 0 {
			problems = reserved
			return report()
		}
	}
	staged, err := export.Stage(o.out, srv, paths, export.Options{
		NotFound: server.NotFoundPath, Redirects: srv.ExportRedirects(), Malformed: malformed(srv.Routes()), NoGzip: o.cf != "",
		Check: func() error {
			problems = siteProblems(snap, host.ConfigFile(spec), srv.RenderProblems())
			if errs := pipeline.Errors(problems); len(errs) > 0 {
				return problemsError(errs)
			}
			return nil
		},
	})
	if err := report(); err != nil {
		return err
	}
	if err != nil {
		return fmt.Errorf("build: %w", err)
	}
	defer staged.Abort()
	// The nginx config and its script are staged beside their names and
	// put in place with the folder: the config always serves the folder
	// it was written for.
	if o.nginx != "" {
		if err := stageNginx(staged, o, snap.Config().BaseURL, refusals(srv.Routes())); err != nil {
			return fmt.Errorf("nginx: %w; %s left as it was", err, o.dest())
		}
	}
	// The Workers project's files likewise: its Worker always answers from
	// the public/ it was made for.
	if o.cf != "" {
		err := staged.StageCloudflare(o.cf, export.CloudflareOptions{
			NotFound: server.NotFoundPath, Refusals: refusals(srv.Routes()), Limits: limits, Name: workerName(snap.Config()),
		})
		if err != nil {
			return fmt.Errorf("cloudflare: %w; %s left as it was", err, o.cf)
		}
	}
	if err := staged.Commit(); err != nil {
		return fmt.Errorf("build: %w; %s left as it was", err, o.dest())
	}
	if staged.Leftover != "" {
		fmt.Fprintf(std.err, "folio: the previous output could not be removed from %s; the next build removes it\n", staged.Leftover)
	}
	site := staged.Site
	fmt.Fprintf(std.err, "folio: wrote %s (%s) to %s in %s\n", count(len(site.Files), "route", "routes"),
		count(len(snap.Posts()), "post", "posts"), o.dest(), time.Since(start).Round(time.Millisecond))
	return nil
}

// malformed describes, for the static host, the paths the server refuses
// with 400 by their shape alone: those of the row with a Syntax (cursor
// pages) whose value does not match it. The probe's value, "!", matches
// no Syntax of the table.
func malformed(rows []server.Route) *export.Malformed {
	for _, rt := range rows {
		if rt.Syntax != "" {
			prefix, suffix := rt.Literals()
			return &export.Malformed{Prefix: prefix, Suffix: suffix, Valid: rt.Syntax, Probe: prefix + "!" + suffix}
		}
	}
	return nil
}

// The exporter releases what the server prepared (see Server.Release).
var _ export.Releaser = (*server.Server)(nil)

// problemsError fails an export that rendering found problems in.
type problemsError []pipeline.Problem

func (e problemsError) Error() string { return count(len(e), "problem", "problems") }

// count writes n with the noun in the right number: "1 problem", "2 problems".
func count(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// buildAddr is the address the export is meant to be served on: --addr,
// else serve's default :8080. It is the base URL when neither the config
// nor --base-url sets one, written as serve writes it. $PORT is serve's
// alone.
func buildAddr(addr string) (net.Addr, error) {
	if addr == "" {
		addr = ":8080"
	}
	if _, _, err := net.SplitHostPort(addr); err != nil {
		return nil, err
	}
	return addrString(addr), nil
}

// addrString is a host:port that is not bound (nor looked up).
type addrString string

func (a addrString) Network() string { return "tcp" }
func (a addrString) String() string  { return string(a) }

// checkNginxPath refuses an nginx config inside the output folder: it
// would be published with the site (and replaced by the next build).
func checkNginxPath(out, conf string) error {
	if conf == "" {
		return nil
	}
	absOut, err1 := filepath.Abs(out)
	absConf, err2 := filepath.Abs(conf)
	if err1 != nil || err2 != nil {
		return fmt.Errorf("build: cannot resolve --out %q or --nginx %q", out, conf)
	}
	if rel, err := filepath.Rel(absOut, absConf); err == nil && (rel == "." || filepath.IsLocal(rel)) {
		return fmt.Errorf("build: --nginx %s is inside the output folder %s; write it elsewhere", conf, out)
	}
	if strings.HasSuffix(conf, string(filepath.Separator)) {
		return fmt.Errorf("build: --nginx %s names a folder, want a file", conf)
	}
	return nil
}

// stageNginx stages the nginx config for the export and the njs module it
// loads, to be put in place with the export; rows are the server's
// refusal rows.
func stageNginx(staged *export.Staged, o *options, base string, rows []export.Refusal) error {
	root, err := filepath.Abs(o.out)
	if err != nil {
		return err
	}
	conf, err := filepath.Abs(o.nginx)
	if err != nil {
		return err
	}
	js := export.ScriptPath(conf)
	// nginx writes "any address" as a bare port.
	listen := strings.TrimPrefix(o.addr, ":")
	if listen == "" {
		listen = "80"
	}
	cfg, script, err := export.Nginx(staged.Site, export.NginxOptions{
		Root: root, Listen: listen, BaseURL: base, Self: conf, Script: js, NotFound: server.NotFoundPath,
		Refusals: rows,
	})
	if err != nil {
		return err
	}
	if err := staged.AddFile(js, script); err != nil {
		return err
	}
	return staged.AddFile(conf, cfg)
}
