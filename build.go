package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"strings"
	"time"

	"folio/export"
	"folio/host"
	"folio/pipeline"
)

// buildInstant is the instant folio build publishes the site as of: the
// posts due then are in the export. Tests move it rather than wait for a
// post's date.
var buildInstant = time.Now

// runBuild writes the static export (host.Export): every route the server
// answers, taken from the server's own handler, into --out, and with
// --nginx the config that serves it, or with --cloudflare a Workers
// project. A site with problems writes nothing and exits 1, so the
// previous output stays as it was. build is a one-shot command: what it
// says, it says in plain "folio: …" lines, as check does.
//
// SIGTERM or Ctrl-C (ctx ends) stops it: while the site loads at once,
// while the export is written between two pages; the staged output is
// removed and the previous output stays as it was, exit 1.
func runBuild(ctx context.Context, o *options, std stdio) error {
	start := time.Now()
	limits, err := cloudflareFlags(o)
	if err != nil {
		return mistake("%v", err)
	}
	defer tuneBuild(o.out)() // o.out is known now: --cloudflare DIR sets it
	if err := checkNginxPath(o.out, o.nginx); err != nil {
		return mistake("%v", err)
	}
	if err := export.Replaceable(o.out); err != nil {
		return mistake("%v", err) // --out names someone's folder
	}
	// The previous build's record is read, and the output looked at,
	// while the site loads (export.ReadAhead).
	ahead := export.ReadAhead(o.out)
	defer ahead.Close()
	spec := o.spec()
	spec.Started, spec.At = start, buildInstant()
	spec.Cache, spec.MapCache, spec.CacheWhole = export.CachePath(o.out), true, ahead.CacheWhole
	if spec.Addr, err = buildAddr(o.addr); err != nil {
		return mistake("--addr: %v", err)
	}
	// The host is loaded and never run: the export is the site at the
	// snapshot's instant, however long it takes to write, and a post due
	// meanwhile waits for the next build.
	h, err := loadStoppable(ctx, spec)
	if errors.Is(err, errStopped) {
		return fmt.Errorf("%w; %s left as it was", err, o.dest())
	}
	if err != nil {
		return err
	}
	snap := h.Snapshot()
	var served net.Addr // an export is served where --addr says, else nowhere yet
	if o.addr != "" {
		served = spec.Addr
	}
	if w := baseWarning(o, snap.Config(), served); w != "" {
		fmt.Fprintln(std.err, w)
	}
	res, err := h.Export(host.ExportOptions{Out: o.out, Nginx: o.nginx, Listen: o.addr, Cloudflare: o.cf, Limits: limits, Ahead: ahead, Stop: ctx.Done()})
	if errors.Is(err, export.ErrStopped) {
		return fmt.Errorf("%w; %s left as it was", errStopped, o.dest())
	}
	writeProblems(std.err, res.Problems, false, "folio check -v lists each")
	if p, ok := clashProblem(snap, err); ok {
		fmt.Fprintln(std.err, p) // as check says it
		return fmt.Errorf("1 problem; %s left as it was", o.dest())
	}
	switch {
	case errors.Is(err, host.ErrProblems):
		return fmt.Errorf("%s; %s left as it was", count(len(pipeline.Errors(res.Problems)), "problem", "problems"), o.dest())
	case err != nil:
		return fmt.Errorf("build: %w; %s left as it was", err, o.dest())
	}
	for _, a := range res.Site.AliasesLeftOut {
		fmt.Fprintln(std.err, aliasWarning(a))
	}
	if res.Leftover != "" {
		fmt.Fprintf(std.err, "folio: the previous output could not be removed from %s; the next build removes it\n", res.Leftover)
	}
	var notes []string
	if site := res.Site; site.Updated {
		notes = append(notes, fmt.Sprintf("%s written, %d removed, the rest as it was", count(site.Written, "file", "files"), site.Removed))
	}
	if parsed, cached := snap.CacheCounts(); cached > 0 {
		notes = append(notes, fmt.Sprintf("%s parsed, %d from the cache", count(parsed, "content file", "content files"), cached))
	}
	var changed string
	if len(notes) > 0 {
		changed = " (" + strings.Join(notes, "; ") + ")"
	}
	aliases := 0
	for i := range res.Site.Files {
		if res.Site.Files[i].IsAliasPage() {
			aliases++
		}
	}
	var pages string
	if aliases > 0 {
		pages = " and " + count(aliases, "alias page", "alias pages")
	}
	fmt.Fprintf(std.err, "folio: wrote %s%s (%s) to %s in %s%s\n", count(len(res.Site.Files)-aliases, "route", "routes"), pages,
		count(len(snap.Posts()), "post", "posts"), o.dest(), time.Since(start).Round(time.Millisecond), changed)
	return nil
}

// errStopped is build's and check's error when a signal stopped them.
var errStopped = errors.New("stopped by a signal")

// loadStoppable is host.Load, unless ctx ends first (SIGTERM, Ctrl-C):
// then errStopped at once. A load writes nothing, so the process may
// exit while it goes on.
func loadStoppable(ctx context.Context, spec host.Spec) (*host.Host, error) {
	type loaded struct {
		h   *host.Host
		err error
	}
	done := make(chan loaded, 1)
	go func() {
		h, err := host.Load(spec)
		done <- loaded{h, err}
	}()
	select {
	case l := <-done:
		return l.h, l.err
	case <-ctx.Done():
		return nil, errStopped
	}
}

// aliasWarning says of an alias the export holds no page for where it
// is declared and why: serve and the configs answer its 301, but a bare
// static host answers 404 there.
func aliasWarning(a export.AliasLeftOut) string {
	msg := fmt.Sprintf("alias %s gets no redirect page in the export (folio serve and the nginx and Cloudflare configs answer its 301; a bare static host answers 404): %s", a.Path, a.Why)
	if a.Source == "" {
		return "folio: warning: " + msg
	}
	return pipeline.Problem{Path: a.Source, Line: a.Line, Message: msg, Severity: pipeline.Warning}.String()
}

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
