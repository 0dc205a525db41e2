package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"folio/pipeline"
)

// openAPI answers /openapi.json: an OpenAPI 3.1 description of the route
// table (openAPIDoc).
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, err := st.memo("openapi.json", func() (*rep, error) {
		body, err := json.MarshalIndent(openAPIDoc(st.snap.Config(), st.routes.rows), "", "  ")
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
func openAPIDoc(cfg *pipeline.Config, rows []Route) obj {
	paths := obj{}
	for i := range rows {
		if rt := &rows[i]; rt.Doc != nil {
			paths[docPath(rt.Path)] = pathItem(rt)
		}
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
				"A post's URL without its final slash, and each of its aliases, redirect (301) to its page; so does /" + cfg.Section + " to /" + cfg.Section + "/. Query strings are ignored."),
		},
		"servers":    []obj{{"url": strings.TrimSuffix(cfg.BaseURL, "/")}},
		"paths":      paths,
		"components": components(cfg),
	}
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
	"BadCursor": "400", "NotFound": "404", "NotFoundPage": "404",
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
