package server

import (
	"encoding/json"
	"net/http"
	"path"
	"slices"
	"strconv"
	"strings"

	"folio/pipeline"
)

// openAPI answers /openapi.json: an OpenAPI 3.1 description of the route
// table (openAPIDoc).
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, err := st.memo("openapi.json", func() (*rep, error) {
		body, err := json.MarshalIndent(openAPIDoc(st.snap.Config(), docRows(st), siteDepth(st)), "", "  ")
		if err != nil {
			return nil, err
		}
		return jsonRep(append(body, '\n'), newest(st, st.snap.Posts())), nil
	})
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

type obj = map[string]any

var schemaText = obj{"schema": obj{"type": "string"}}

// schemaRef is the schema of a component: "#/components/schemas/name".
func schemaRef(name string) obj { return obj{"$ref": "#/components/schemas/" + name} }

// openAPIDoc describes the rows that have a Doc, made from the
// configuration (base URL, section, page size) so that it always
// describes the server that serves it.
//
// The site's own rows (its pages, twins, feeds and files, at Hugo's URLs)
// are at paths of any depth, which an OpenAPI path template cannot say in
// one: each is described at every depth the site has, as /{p1}/,
// /{p1}/{p2}/, … (a page), /{p1}.md … (its twin), /{p1} … (a feed or a
// file, or a page's URL without its final slash).
func openAPIDoc(cfg *pipeline.Config, rows []Route, depth int) obj {
	paths := obj{}
	var order []string
	byPath := map[string]Route{}
	add := func(p string, rt Route) {
		if prev, ok := byPath[p]; ok {
			rt = mergeDocs(prev, rt)
		} else {
			order = append(order, p)
		}
		byPath[p] = rt
	}
	for i := range rows {
		rt := rows[i]
		if rt.Doc == nil {
			continue
		}
		if rt.site == nil {
			add(docPath(rt.Path), rt)
			continue
		}
		for d := 1; d <= depth; d++ {
			add(siteDocPath(rt.Kind, d), rt.withParams(d))
		}
	}
	for _, p := range order {
		rt := byPath[p]
		paths[p] = pathItem(&rt)
	}
	return obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": obj{
			"title":   cfg.Title,
			"version": "1",
			"description": strings.TrimSpace(cfg.Description + "\n\n" +
				"A read-only service: every path answers GET and HEAD, OPTIONS with 204, and any other method with 405 and a problem body. " +
				"Every answer carries a strong ETag and Last-Modified and honours If-None-Match and If-Modified-Since with 304, and If-Match and If-Unmodified-Since with 412 (evaluated in RFC 9110's order). " +
				"Text bodies over 1 KiB are also available gzip-compressed, as Accept-Encoding allows. " +
				"Errors under /api/ and on .json and .md paths are application/problem+json (RFC 9457); pages get an HTML 404. " +
				"A page's URL without its final slash, and each of its aliases, redirect (301) to it. Query strings are ignored."),
		},
		"servers":    []obj{{"url": strings.TrimSuffix(cfg.BaseURL, "/")}},
		"paths":      paths,
		"components": components(cfg, depth),
	}
}

// docRows are the rows the document describes for st: the table's, with
// the home page's as st answers them. Where the home page lives in the
// default language's folder (homeMoved), / is a 301 there, or, with the
// redirect turned off, the site's own static index.html where it has one
// (rootFile); and /index.md is the twin of no page (elsewhere): a
// static index.md of the site is the site's files' row's.
func docRows(st *state) []Route {
	if !homeMoved(st) {
		return st.routes.rows
	}
	page, _ := homeURLs(st)
	rows := make([]Route, 0, len(st.routes.rows))
	for _, rt := range st.routes.rows {
		switch {
		case rt.Path == homeTwinPath:
			continue
		case rt.Kind != KindHome:
		case elsewhere(st, &rt):
			f, _ := lookupSiteFile(st, rt.Path)
			rt = Route{Path: rt.Path, Kind: KindFile, Types: []string{mediaOf(contentType(f.File))},
				Doc: &Doc{ID: "Root", Summary: "The site's own " + path.Base(f.Path) + " (from its static folder), as Hugo publishes it at /; the home page is " + page}}
		default:
			rt = Route{Path: rt.Path, Kind: KindRedirect,
				Doc: &Doc{ID: "Home", Summary: "Redirect (301) to the home page of the default language, " + page, Moved: page}}
		}
		rows = append(rows, rt)
	}
	return rows
}

// mediaOf is a content type's media type, without its parameters.
func mediaOf(contentType string) string {
	media, _, _ := strings.Cut(contentType, ";")
	return strings.TrimSpace(media)
}

// mergeDocs describes two rows of one path (the site's pages, feeds and
// files are all at Hugo's paths, which only the site model tells apart)
// as one: either answer, with either's errors.
func mergeDocs(a, b Route) Route {
	doc := *a.Doc
	doc.Summary = a.Doc.Summary + "; or " + b.Doc.Summary
	doc.Description = strings.TrimSpace(a.Doc.Description + " " + b.Doc.Description)
	for _, e := range b.Doc.Errors {
		if !slices.Contains(doc.Errors, e) {
			doc.Errors = append(doc.Errors, e)
		}
	}
	if doc.Schema == nil {
		doc.Schema = b.Doc.Schema
	}
	a.Doc = &doc
	a.Types = slices.Clone(a.Types)
	for _, t := range b.Types {
		if !slices.Contains(a.Types, t) {
			a.Types = append(a.Types, t)
		}
	}
	a.Negotiates = a.Negotiates || b.Negotiates
	if b.CORS > a.CORS {
		a.CORS = b.CORS
	}
	return a
}

// siteDocPath is the template of a site row's paths d segments deep.
func siteDocPath(kind Kind, d int) string {
	var b strings.Builder
	for i := 1; i <= d; i++ {
		b.WriteString("/{p" + strconv.Itoa(i) + "}")
	}
	switch kind {
	case KindPage:
		b.WriteString("/")
	case KindMarkdown:
		b.WriteString(".md")
	}
	return b.String()
}

// withParams is the row with its path parameters p1 … pd.
func (rt Route) withParams(d int) Route {
	doc := *rt.Doc
	doc.ID += strconv.Itoa(d)
	doc.Params = nil
	for i := 1; i <= d; i++ {
		doc.Params = append(doc.Params, "p"+strconv.Itoa(i))
	}
	rt.Doc = &doc
	return rt
}

// siteDepth is how many segments the site's deepest path has (at least
// one), for the templates of its rows.
func siteDepth(st *state) int {
	depth := 1
	for _, r := range st.snap.Routes() {
		depth = max(depth, strings.Count(strings.Trim(r.Path, "/"), "/")+1)
	}
	return depth
}

// docPath is a row's path as OpenAPI templates it: {name...} is {name}.
func docPath(path string) string { return strings.ReplaceAll(path, "...}", "}") }

// content is the 200 answer's media types, each with the row's schema.
func content(rt *Route) obj {
	schema := rt.Doc.Schema
	if schema == nil {
		schema = obj{"type": "string"}
	}
	c := obj{}
	for _, t := range rt.Types {
		c[t] = obj{"schema": schema}
	}
	return c
}

// pathItem describes one route: GET, HEAD (the same answers without a
// body), OPTIONS, and 405 for the methods a read-only service refuses.
func pathItem(rt *Route) obj {
	item := obj{
		"summary": rt.Doc.Summary,
		"get":     operation(rt, "get", true),
		"head":    operation(rt, "head", false),
		"options": obj{"summary": "Allowed methods", "responses": obj{"204": ref("responses", optionsResponse(rt))}},
	}
	if rt.Doc.Description != "" {
		item["description"] = rt.Doc.Description
	}
	for _, m := range []string{"post", "put", "patch", "delete"} {
		item[m] = obj{"summary": "Not allowed: the service is read-only", "responses": obj{"405": ref("responses", "MethodNotAllowed")}}
	}
	var params []obj
	for _, p := range rt.Doc.Params {
		params = append(params, ref("parameters", p))
	}
	if params != nil {
		item["parameters"] = params
	}
	return item
}

func optionsResponse(rt *Route) string {
	if rt.CORS == CORSAll {
		return "OptionsCORS"
	}
	return "Options"
}

func operation(rt *Route, method string, withBody bool) obj {
	if rt.Doc.Moved != "" {
		return obj{
			"operationId": method + rt.Doc.ID,
			"summary":     rt.Doc.Summary,
			"responses": obj{"301": obj{"description": "Moved permanently to " + rt.Doc.Moved, "headers": obj{
				"Location":      obj{"description": rt.Doc.Moved, "schema": obj{"type": "string", "const": rt.Doc.Moved}},
				"Cache-Control": ref("headers", "CacheControl"),
			}}},
		}
	}
	responses := obj{}
	responses["200"] = okResponse(rt, withBody)
	responses["304"] = notModifiedResponse(rt)
	for _, e := range rt.Doc.Errors {
		responses[errorStatus[e]] = ref("responses", e)
	}
	responses["412"] = ref("responses", "PreconditionFailed")
	params := []obj{ref("parameters", "IfMatch"), ref("parameters", "IfUnmodifiedSince"), ref("parameters", "IfNoneMatch"), ref("parameters", "IfModifiedSince")}
	return obj{
		"operationId": method + rt.Doc.ID,
		"summary":     rt.Doc.Summary,
		"parameters":  params,
		"responses":   responses,
	}
}

// errorStatus maps each error response component to its status.
var errorStatus = map[string]string{
	"BadCursor": "400", "NotFound": "404", "NotFoundPage": "404", "NotFoundSite": "404",
	"NotAcceptable": "406", "Unavailable": "503",
}

func okResponse(rt *Route, withBody bool) obj {
	h := obj{
		"ETag":          ref("headers", "ETag"),
		"Last-Modified": ref("headers", "LastModified"),
		"Cache-Control": ref("headers", "CacheControl"),
		"Vary":          ref("headers", "Vary"),
	}
	if rt.CORS == CORSAll {
		h["Access-Control-Allow-Origin"] = ref("headers", "AllowOrigin")
	}
	if rt.Link {
		h["Link"] = ref("headers", "Link")
	}
	resp := obj{"description": rt.Doc.Summary, "headers": h}
	if withBody {
		resp["content"] = content(rt)
	}
	return resp
}

func notModifiedResponse(rt *Route) obj {
	h := obj{"ETag": ref("headers", "ETag"), "Cache-Control": ref("headers", "CacheControl"), "Vary": ref("headers", "Vary")}
	if rt.CORS == CORSAll {
		h["Access-Control-Allow-Origin"] = ref("headers", "AllowOrigin")
	}
	return obj{"description": "Not modified: the validators of the request match", "headers": h}
}

func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }
