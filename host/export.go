package host

import (
	"cmp"
	"errors"
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"folio/export"
	"folio/pipeline"
	"folio/render"
	"folio/server"
)

// This file is what check and build do with a loaded host: the one list
// of problems, and the export written from the server's own answers.

// Problems is the one list check prints and build reports: the
// snapshot's problems, the site templates', what rendering found
// (rendered) and what the gate refuses, by path and line. Warnings (what
// Hugo accepts) are in it; only errors fail a command.
func (h *Host) Problems(rendered []pipeline.Problem) []pipeline.Problem {
	return h.problems(rendered, Gate(h.Snapshot(), ConfigFile(h.spec)))
}

// problems is Problems with what the gate refuses already found.
func (h *Host) problems(rendered, gate []pipeline.Problem) []pipeline.Problem {
	snap := h.Snapshot()
	problems := slices.Concat(snap.Config().Warnings, snap.Problems(), render.SiteProblems(snap.Config()), rendered, gate)
	slices.SortStableFunc(problems, func(a, b pipeline.Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line))
	})
	return problems
}

// RenderAll renders every page the server renders, the way it does, and
// returns what rendering finds: links and refs to unpublished posts,
// shortcodes that fail or have no template, with their severity. Those
// are the published posts and every other regular page with content
// (an about page, a page of a section that is not the posts'): check
// finds what build, which asks for each of them, refuses.
func (h *Host) RenderAll() []pipeline.Problem {
	snap := h.Snapshot()
	r, ix := render.ForSnapshot(snap)
	var out []pipeline.Problem
	for _, p := range rendered(snap) {
		for _, is := range r.Render(p, ix).Issues {
			out = append(out, pipeline.Problem{Path: snap.DisplayPath(p.File), Line: is.Line, Message: is.Message, Severity: is.Severity})
		}
	}
	return out
}

// rendered are the posts the server renders, each once: the published
// posts, then the content of the site's other regular pages it writes.
func rendered(snap *pipeline.Snapshot) []*pipeline.Post {
	posts := snap.Posts()
	seen := make(map[*pipeline.Post]bool, len(posts))
	for _, p := range posts {
		seen[p] = true
	}
	out := slices.Clip(posts)
	for _, pg := range snap.Pages() {
		if pg.Kind == pipeline.KindPage && pg.Rendered && pg.Post != nil && !seen[pg.Post] {
			seen[pg.Post] = true
			out = append(out, pg.Post)
		}
	}
	return out
}

// ExportOptions say where an export goes and how it is served.
type ExportOptions struct {
	Out string // the folder of the export (a Workers project's public/)
	// Nginx is the file of the nginx config that serves it, "" for none;
	// Listen its listen address ("" is 80).
	Nginx, Listen string
	// Cloudflare is the Workers project the export is in, "" for none;
	// Limits the plan's.
	Cloudflare string
	Limits     export.Limits
	// Ahead is Out's previous record read ahead (export.ReadAhead), or
	// nil.
	Ahead *export.Ahead
	// Stop, when closed, stops the export before it replaces Out, which
	// stays as it was (export.ErrStopped); once the new export is being
	// put in place, it is put in place whole.
	Stop <-chan struct{}
}

// An Export is what Export wrote, or why it did not.
type Export struct {
	// Problems are the site's, in check's order; with an error among
	// them nothing was written (ErrProblems).
	Problems []pipeline.Problem
	Site     *export.Site
	// Leftover is the previous output that could not be removed; the
	// next export removes it.
	Leftover string
}

// ErrProblems is Export's error when the site has errors: the previous
// output is left as it was.
var ErrProblems = errors.New("the site has problems")

// Export writes every route the server answers, from its own handler,
// into o.Out, with the nginx config or the Workers project that serves
// it, all or nothing. The site is the snapshot's at its instant, however
// long the writing takes. Rendering finds the rest of the problems
// (links to posts that are not published, shortcodes that fail) as it
// makes the pages; an error among them fails the export before it
// replaces the previous one.
func (h *Host) Export(o ExportOptions) (Export, error) {
	var res Export
	snap, srv := h.Snapshot(), h.Server()
	// The gate's problems are the snapshot's: found once, before and
	// after rendering (it opens every bundle and static file). They are
	// found, and the site's shape made (what Stage compares with the
	// previous record first), while the paths are listed: each of the
	// three takes one core for some 40-60 ms at 10,000 posts.
	go srv.Shape()
	gated := make(chan []pipeline.Problem, 1)
	go func() { gated <- Gate(snap, ConfigFile(h.spec)) }()
	// Whether the parse cache is worth writing again (a look at each of
	// its 10,000 entries) is known by the time the export is staged.
	worth := make(chan bool, 1)
	go func() { worth <- h.spec.Cache != "" && snap.CacheWorthWriting() }()
	paths, indexes := srv.ExportPathsIndexes()
	gate := <-gated
	if pipeline.Errors(h.problems(nil, gate)) != nil {
		// No export for a site with errors already (it may not even be
		// writable); rendering the posts as check does finds the rest.
		res.Problems = h.problems(h.RenderAll(), gate)
		return res, ErrProblems
	}
	if o.Cloudflare != "" {
		if res.Problems = reservedProblems(snap.Config(), paths); len(res.Problems) > 0 {
			return res, ErrProblems
		}
	}
	// The redirects are for the nginx config or the Worker to make: a
	// folder alone has no use for them (asking the server for each of
	// 10,000 posts' was 0.1 s of a build after a one-post edit).
	var redirects []string
	if o.Nginx != "" || o.Cloudflare != "" {
		redirects = srv.ExportRedirects()
	}
	aliases, aliasProblems := aliasPages(srv, o)
	staged, err := export.Stage(o.Out, srv, paths, export.Options{
		NotFound: server.NotFoundPath, Redirects: redirects, Aliases: aliases, Malformed: malformed(srv.Routes()), NoGzip: o.Cloudflare != "", Indexes: indexes,
		Fingerprint: func(p string, prev server.Recorded) (export.Print, bool) {
			fp, post, posts, ok := srv.FingerprintOf(p, prev)
			return export.Print{Sum: fp, Post: post, Posts: posts}, ok
		},
		Shape: srv.Shape, Refingerprint: srv.Refingerprint, Ahead: o.Ahead, Stop: o.Stop,
		Check: func() error {
			res.Problems = h.problems(srv.RenderProblems(), gate)
			if pipeline.Errors(res.Problems) != nil {
				return ErrProblems
			}
			return nil
		},
	})
	if errors.Is(err, ErrProblems) || pipeline.Errors(res.Problems) != nil {
		return res, ErrProblems
	}
	if err != nil {
		return res, err
	}
	res.Problems = append(res.Problems, aliasProblems...)
	defer staged.Abort()
	if <-worth {
		// The parse cache is put in place with the export, written as
		// it is encoded (it is as large as the content), once enough of
		// it went stale. Without it (a full disk) the next build parses
		// more, and makes the same bytes: the cache is checked file by
		// file.
		_ = staged.AddFileFrom(h.spec.Cache, snap.WriteCache)
	} else if info := snap.CacheFile(); info != nil {
		// The cache read whole stays: the record says so, and the next
		// build does not compute its CRC again.
		staged.KeepCache(info, h.spec.Started)
	}
	// The nginx config and its script are staged beside their names and
	// put in place with the folder: the config always serves the folder
	// it was written for. The Workers project's files likewise.
	if o.Nginx != "" {
		if err := stageNginx(staged, o, snap.Config().BaseURL, refusals(srv.Routes())); err != nil {
			return res, fmt.Errorf("nginx: %w", err)
		}
	}
	if o.Cloudflare != "" {
		err := staged.StageCloudflare(o.Cloudflare, export.CloudflareOptions{
			NotFound: server.NotFoundPath, Refusals: refusals(srv.Routes()), Limits: o.Limits, Name: workerName(snap.Config()),
		})
		if err != nil {
			return res, fmt.Errorf("cloudflare: %w", err)
		}
	}
	select {
	case <-o.Stop:
		return res, export.ErrStopped
	default:
	}
	if err := staged.Commit(); err != nil {
		return res, err
	}
	res.Site, res.Leftover = staged.Site, staged.Leftover
	return res, nil
}

// aliasPages are the aliases the export writes as HTML redirect pages
// (export.Alias), for a static host that cannot answer their 301: all of
// the server's (Server.ExportAliases), but in a Workers project, whose
// Worker answers every alias itself (an alias page among its assets would
// only count against the plan's files).
//
// The pages are the site's alias template's where it has one; where it
// fails, a warning at its line says so (once per problem) and folio's
// own page stands.
func aliasPages(srv *server.Server, o ExportOptions) ([]export.Alias, []pipeline.Problem) {
	if o.Cloudflare != "" {
		return nil, nil
	}
	var out []export.Alias
	var problems []pipeline.Problem
	for _, a := range srv.ExportAliases() {
		out = append(out, export.Alias{Path: a.Path, Lang: a.Lang, Source: a.Source, Line: a.Line, Page: a.Page})
		if a.Problem != nil && !slices.Contains(problems, *a.Problem) {
			problems = append(problems, *a.Problem)
		}
	}
	return out, problems
}

// The exporter releases what the server prepared (see Server.Release).
var _ export.Releaser = (*server.Server)(nil)

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

// refusals are the server's refusal rows, for the Worker and the nginx
// config to refuse paths that name nothing as the server does.
func refusals(rows []server.Route) []export.Refusal {
	var out []export.Refusal
	for _, rt := range rows {
		if rt.Kind != server.KindNotFound {
			continue
		}
		prefix, suffix := rt.Literals()
		out = append(out, export.Refusal{Prefix: prefix, Suffix: suffix, CORS: rt.CORS == server.CORSAll, Problem: rt.Errors == server.ErrorsProblem})
	}
	return out
}

// stageNginx stages the nginx config for the export and the njs module it
// loads, to be put in place with the export; rows are the server's
// refusal rows.
func stageNginx(staged *export.Staged, o ExportOptions, base string, rows []export.Refusal) error {
	root, err := filepath.Abs(o.Out)
	if err != nil {
		return err
	}
	conf, err := filepath.Abs(o.Nginx)
	if err != nil {
		return err
	}
	js := export.ScriptPath(conf)
	// nginx writes "any address" as a bare port.
	listen := strings.TrimPrefix(o.Listen, ":")
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

// reservedProblems are the problems of a site whose export holds a file
// Cloudflare would read as its own configuration (export.ReservedNames),
// each named as the static folder holds it.
func reservedProblems(cfg *pipeline.Config, paths []string) []pipeline.Problem {
	static := "static"
	for _, m := range cfg.Mounts {
		if m.Target == "static" {
			static = m.Source
			break
		}
	}
	var out []pipeline.Problem
	for _, p := range export.ReservedNames(paths) {
		name, _ := url.PathUnescape(p)
		out = append(out, pipeline.Problem{
			Path: filepath.Join(static, filepath.FromSlash(path.Clean(name))), Line: 1,
			Message: "Cloudflare reads _headers, _redirects, _worker.js and .assetsignore at the root of a Workers project as its own configuration, behind folio's back (and uploads nothing under them); remove or rename " + strings.TrimPrefix(name, "/") + " to build with --cloudflare",
		})
	}
	return out
}

// workerName is the name of a new project's Worker: the base URL's host
// (the site's own name on the web), else its title, made what Cloudflare
// accepts (lower-case letters, digits and dashes, at most 63).
func workerName(cfg *pipeline.Config) string {
	source := cfg.Title
	if u, err := url.Parse(cfg.BaseURL); err == nil && cfg.BaseSet && u.Hostname() != "" && u.Hostname() != "localhost" {
		source = u.Hostname()
	}
	name := strings.Trim(nameJunk.ReplaceAllString(strings.ToLower(source), "-"), "-")
	if len(name) > 63 {
		name = strings.TrimRight(name[:63], "-")
	}
	if name == "" {
		return "folio-site"
	}
	return name
}

var nameJunk = regexp.MustCompile(`[^a-z0-9]+`)
