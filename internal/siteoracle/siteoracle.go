// Package siteoracle puts a folio snapshot's routes in the shape of
// hugotest's Outputs, so that they compare with what Hugo writes: the
// check of issue 13 (pipeline's TestSiteOracle, bench/hugocompare).
package siteoracle

import (
	"net/url"

	"folio/internal/hugotest"
	"folio/pipeline"
)

// Outputs are the routes a folio snapshot publishes, as the oracle
// classifies Hugo's output.
func Outputs(snap *pipeline.Snapshot) map[string]hugotest.Output {
	out := map[string]hugotest.Output{}
	cfg := snap.Config()
	for _, r := range snap.Routes() {
		o := hugotest.Output{Path: r.Path, Target: r.Target, Class: "file"}
		switch r.Kind {
		case pipeline.RoutePage, pipeline.RoutePager:
			o.Class, o.Title, o.Kind, o.Lang = "page", r.Page.Title, r.Page.Kind, r.Page.Lang
			if r.Page.Kind == pipeline.KindTerm && r.Page.Post == nil {
				for _, s := range r.Page.Spellings {
					o.Alt = append(o.Alt, cfg.TermTitle(s))
				}
			}
		case pipeline.RouteFeed:
			o.Class = "feed"
		case pipeline.RouteAlias:
			o.Class = "alias"
		}
		out[r.Path] = o
	}
	return out
}

// BasePath is the path of the site's base URL: "/", or "/sub/".
func BasePath(cfg *pipeline.Config) string {
	if u, err := url.Parse(cfg.BaseURL); err == nil && u.Path != "" {
		return u.Path
	}
	return "/"
}
