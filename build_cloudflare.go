package main

import (
	"fmt"

	"folio/export"
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
