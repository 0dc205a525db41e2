package main

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"strings"

	"folio/export"
	"folio/pipeline"
	"folio/server"
)

// cloudflareFlags checks --cloudflare against the other flags and, when
// it is given, points the export at the project's public/. It returns the
// plan's limits.
func cloudflareFlags(o *options) (export.Limits, error) {
	var limits export.Limits
	switch o.cfPlan {
	case "free":
		limits = export.FreePlan
	case "paid":
		limits = export.PaidPlan
	default:
		return limits, fmt.Errorf("build: --cloudflare-plan %q: want free or paid", o.cfPlan)
	}
	if o.cf == "" {
		if o.set["cloudflare-plan"] {
			return limits, fmt.Errorf("build: --cloudflare-plan without --cloudflare")
		}
		return limits, nil
	}
	switch {
	case o.set["out"]:
		return limits, fmt.Errorf("build: --cloudflare %s writes the export into %s; leave out --out", o.cf, export.CloudflarePublic(o.cf))
	case o.nginx != "":
		return limits, fmt.Errorf("build: --cloudflare and --nginx are two ways to serve the export; build each on its own")
	}
	if err := export.CheckCloudflareProject(o.cf); err != nil {
		return limits, fmt.Errorf("build: %w", err)
	}
	o.out = export.CloudflarePublic(o.cf)
	return limits, nil
}

// dest is the folder a build writes: the Workers project, or --out.
func (o *options) dest() string {
	if o.cf != "" {
		return o.cf
	}
	return o.out
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
