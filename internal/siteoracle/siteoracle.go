// Package siteoracle puts a folio snapshot's routes in the shape of
// hugotest's Outputs, so that they compare with what Hugo writes: the
// check of issue 13 (pipeline's TestSiteOracle, bench/hugocompare).
package siteoracle

import (
	"bytes"
	"fmt"
	"maps"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	// A folder's index.html file is answered at the folder's URL, the
	// key Hugo's output has for it, unless a route holds that URL.
	for p, o := range out {
		if dir, ok := strings.CutSuffix(p, "/index.html"); ok && o.Class == "file" {
			if _, taken := out[dir+"/"]; !taken {
				delete(out, p)
				o.Path = dir + "/"
				out[o.Path] = o
			}
		}
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

// Answers asks folio's handler h for every URL Hugo wrote (hugo, read
// from Hugo's output folder out) and reports which it answers as Hugo's
// output does: a page 200 with HTML, and its Markdown twin 200 with
// Markdown; a feed 200 with RSS; an alias 301 to its target (base, the
// base URL's path, as in Compare); a file 200 with Hugo's bytes. The classes in
// hugotest.NotFolios are counted apart, and an asset h does not answer
// is one: a Hugo Pipes output ("pipes").
func Answers(h http.Handler, hugo map[string]hugotest.Output, out, base string) hugotest.Report {
	r := hugotest.Report{Classes: map[string][2]int{}, Others: map[string]int{}}
	for _, p := range slices.Sorted(maps.Keys(hugo)) {
		o := hugo[p]
		d := ""
		if o.Class == "asset" {
			// Content's image, or a Hugo Pipes output when folio has
			// no such file (hugotest's markAssets).
			o.Class = "file"
			if d = answer(h, o, out, base); d != "" {
				o.Class = "pipes"
			}
		} else if !slices.Contains(hugotest.NotFolios, o.Class) {
			d = answer(h, o, out, base)
		}
		if slices.Contains(hugotest.NotFolios, o.Class) {
			r.Others[o.Class]++
			continue
		}
		r.Add(o.Class, d)
	}
	return r
}

// answer is "" when h answers Hugo's output o as it should, else what
// it answered.
func answer(h http.Handler, o hugotest.Output, out, base string) string {
	target := (&url.URL{Path: o.Path}).EscapedPath()
	w := get(h, target, "")
	got := fmt.Sprintf("%s %s: %d %s", o.Class, o.Path, w.Code, w.Header().Get("Content-Type"))
	switch o.Class {
	case "page":
		if w.Code != http.StatusOK || !strings.HasPrefix(w.Header().Get("Content-Type"), "text/html") {
			return got
		}
		twin := (&url.URL{Path: pipeline.TwinPath(o.Path)}).EscapedPath()
		if m := get(h, twin, ""); m.Code != http.StatusOK || !strings.HasPrefix(m.Header().Get("Content-Type"), "text/markdown") {
			return fmt.Sprintf("%s: its Markdown twin %s: %d %s", got, twin, m.Code, m.Header().Get("Content-Type"))
		}
		if m := get(h, target, "text/markdown"); m.Code != http.StatusOK || !strings.HasPrefix(m.Header().Get("Content-Type"), "text/markdown") {
			return fmt.Sprintf("%s: asked for Markdown: %d %s", got, m.Code, m.Header().Get("Content-Type"))
		}
	case "feed":
		if w.Code != http.StatusOK || !strings.Contains(w.Header().Get("Content-Type"), "xml") || !bytes.Contains(w.Body.Bytes(), []byte("<rss")) {
			return got
		}
	case "alias":
		loc, err := url.Parse(w.Header().Get("Location"))
		want := strings.TrimSuffix(o.Target, "index.html")
		if w.Code != http.StatusMovedPermanently || err != nil || (loc.Path != want && base+strings.TrimPrefix(loc.Path, "/") != want) {
			return fmt.Sprintf("%s to %s (want 301 to %s)", got, w.Header().Get("Location"), want)
		}
	default:
		file := strings.TrimPrefix(o.Path, "/")
		if file == "" || strings.HasSuffix(file, "/") {
			file += "index.html" // an HTML file of the site's own
		}
		data, err := os.ReadFile(filepath.Join(out, filepath.FromSlash(file)))
		if err != nil {
			return fmt.Sprintf("%s: %v", got, err)
		}
		status := http.StatusOK
		if o.Path == "/404.html" {
			// A static 404.html is the site's 404 page, which answers
			// with its status there as at every unknown path (serve,
			// nginx, the Worker); the export's file is Hugo's.
			status = http.StatusNotFound
		}
		if w.Code != status || !bytes.Equal(w.Body.Bytes(), data) {
			return fmt.Sprintf("%s, %d bytes (Hugo's: %d)", got, w.Body.Len(), len(data))
		}
	}
	return ""
}

func get(h http.Handler, target, accept string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodGet, target, nil)
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, req)
	return w
}
