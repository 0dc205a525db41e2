package server

import (
	"encoding/json"
	"net/http"
	"strings"

	"folio/pipeline"
)

// openAPI answers /openapi.json: an OpenAPI 3.1 description of every route,
// made from the configuration (base URL, section, page size) so it always
// describes the server that serves it.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	rp, err := st.memo("openapi.json", func() (*rep, error) {
		body, err := json.MarshalIndent(openAPIDoc(st.snap.Config()), "", "  ")
		if err != nil {
			return nil, err
		}
		return jsonRep(append(body, '\n'), newest(st, st.snap.Posts())), nil
	})
	if err != nil {
		s.internalError(w, r, err)
		return
	}
	s.serve(w, r, st, rp)
}

type obj = map[string]any

// A route is one path of the description. The document is made from this
// table so that every path gets the same headers, error answers and
// methods; only what differs between routes is written here.
type route struct {
	path, id, summary, description string
	params                         []string // path parameters, by component name
	content                        obj      // 200 content, by media type
	cors                           bool     // Access-Control-Allow-Origin: *
	negotiated                     bool     // Accept decides HTML or Markdown
	link                           bool     // Link header (canonical or alternate)
	errors                         []string // response component names besides 304
}

func routeTable(cfg *pipeline.Config) []route {
	sec := "/" + cfg.Section
	html := obj{"text/html": schemaText}
	md := obj{"text/markdown": schemaText}
	both := obj{"text/html": schemaText, "text/markdown": schemaText}
	return []route{
		{path: "/", id: "Home", summary: "Home page", content: html},
		{path: sec + "/", id: "Directory", summary: "Blog directory: every post, with a search box and the WebMCP tool search_blog_posts",
			description: "HTML, or the list of posts as Markdown when Accept prefers text/markdown (a tie goes to Markdown).",
			content:     both, negotiated: true, link: true, errors: []string{"NotAcceptable"}},
		{path: sec + ".md", id: "DirectoryMarkdown", summary: "The blog directory as Markdown", content: md, cors: true, link: true},
		{path: sec + "/{slug}/", id: "Article", summary: "Article page",
			description: "HTML, or the article as Markdown (the same bytes as markdownUrl) when Accept prefers text/markdown. " +
				"The URL without its final slash redirects here (301); it is not listed as a path of its own because it would be ambiguous with " + sec + "/{slug}.md.",
			params: []string{"slug"}, content: both, negotiated: true, link: true, errors: []string{"NotAcceptable", "NotFoundPage"}},
		{path: sec + "/{slug}.md", id: "ArticleMarkdown", summary: "The article as Markdown (a post's markdownUrl)",
			description: "YAML front matter (title, description, date, tags, url), then # Title, then the article with shortcodes expanded and relative links made absolute.",
			params:      []string{"slug"}, content: md, cors: true, link: true, errors: []string{"NotFound"}},
		{path: sec + "/{slug}/{file}", id: "BundleFile", summary: "A file of the article's page bundle (image, data)",
			params: []string{"slug", "file"}, content: fileContent(), errors: []string{"NotFoundPage"}},
		{path: "/api/posts.json", id: "Posts", summary: "Every published post, newest first",
			content: jsonContent("#/components/schemas/PostCollection"), cors: true},
		{path: "/api/posts/cursor/{cursor}.json", id: "CursorPage", summary: "One page of posts",
			description: "Start with cursor 0 and follow nextCursor until it is null; the pages together hold exactly the items of /api/posts.json, in order. Posts added or removed during a walk never make one that stayed be skipped or repeated.",
			params:      []string{"cursor"}, content: jsonContent("#/components/schemas/CursorPage"), cors: true, errors: []string{"BadCursor"}},
		{path: "/openapi.json", id: "OpenAPI", summary: "This document", content: obj{"application/json": obj{"schema": obj{"type": "object"}}}, cors: true},
		{path: "/rss.xml", id: "Feed", summary: "RSS 2.0 feed of the newest posts", content: obj{"application/rss+xml": schemaText}, cors: true},
		{path: "/llms.txt", id: "LLMsTxt", summary: "llms.txt: the site and a link to every post's Markdown", content: obj{"text/plain": schemaText}, cors: true},
		{path: "/sitemap.xml", id: "Sitemap", summary: "Sitemap of every HTML page", content: obj{"application/xml": schemaText}},
		{path: "/healthz", id: "Health", summary: "200 ok while a snapshot is loaded (always, once the server has started)",
			content: obj{"text/plain": obj{"schema": obj{"const": "ok"}}}, errors: []string{"Unavailable"}},
		{path: "/sdk/blog-client.js", id: "SDK", summary: "The dependency-free JavaScript client (ES module)", content: obj{"text/javascript": schemaText}, cors: true},
		{path: "/static/{asset}", id: "Asset", summary: "Theme assets (fingerprinted names are immutable)",
			params: []string{"asset"}, content: fileContent(), errors: []string{"NotFoundPage"}},
	}
}

var schemaText = obj{"schema": obj{"type": "string"}}

// fileContent lists every media type of the fixed extension table: files
// are served as they are, so their schema says nothing of the bytes.
func fileContent() obj {
	c := obj{"application/octet-stream": obj{"schema": obj{}}}
	for _, t := range contentTypes {
		c[t] = obj{"schema": obj{}}
	}
	return c
}

func jsonContent(ref string) obj { return obj{"application/json": obj{"schema": obj{"$ref": ref}}} }

func openAPIDoc(cfg *pipeline.Config) obj {
	paths := obj{}
	for _, rt := range routeTable(cfg) {
		paths[rt.path] = pathItem(rt)
	}
	return obj{
		"openapi":           "3.1.0",
		"jsonSchemaDialect": "https://spec.openapis.org/oas/3.1/dialect/base",
		"info": obj{
			"title":   cfg.Title,
			"version": "1",
			"description": strings.TrimSpace(cfg.Description + "\n\n" +
				"A read-only service: every path answers GET and HEAD, OPTIONS with 204, and any other method with 405 and a problem body. " +
				"Every answer carries a strong ETag and Last-Modified and honours If-None-Match and If-Modified-Since with 304. " +
				"Text bodies over 1 KiB are also available gzip-compressed, as Accept-Encoding allows. " +
				"Errors under /api/ and on .json and .md paths are application/problem+json (RFC 9457); pages get an HTML 404. " +
				"A post's URL without its final slash, and each of its aliases, redirect (301) to its page; so does /" + cfg.Section + " to /" + cfg.Section + "/. Query strings are ignored."),
		},
		"servers":    []obj{{"url": strings.TrimSuffix(cfg.BaseURL, "/")}},
		"paths":      paths,
		"components": components(cfg),
	}
}

// pathItem describes one route: GET, HEAD (the same answers without a
// body), OPTIONS, and 405 for the methods a read-only service refuses.
func pathItem(rt route) obj {
	item := obj{
		"summary": rt.summary,
		"get":     operation(rt, "get", true),
		"head":    operation(rt, "head", false),
		"options": obj{"summary": "Allowed methods", "responses": obj{"204": ref("responses", optionsResponse(rt))}},
	}
	if rt.description != "" {
		item["description"] = rt.description
	}
	for _, m := range []string{"post", "put", "patch", "delete"} {
		item[m] = obj{"summary": "Not allowed: the service is read-only", "responses": obj{"405": ref("responses", "MethodNotAllowed")}}
	}
	var params []obj
	for _, p := range rt.params {
		params = append(params, ref("parameters", p))
	}
	if params != nil {
		item["parameters"] = params
	}
	return item
}

func optionsResponse(rt route) string {
	if rt.cors {
		return "OptionsCORS"
	}
	return "Options"
}

func operation(rt route, method string, withBody bool) obj {
	responses := obj{}
	responses["200"] = okResponse(rt, withBody)
	responses["304"] = notModifiedResponse(rt)
	for _, e := range rt.errors {
		responses[errorStatus[e]] = ref("responses", e)
	}
	params := []obj{ref("parameters", "IfNoneMatch"), ref("parameters", "IfModifiedSince")}
	return obj{
		"operationId": method + rt.id,
		"summary":     rt.summary,
		"parameters":  params,
		"responses":   responses,
	}
}

// errorStatus maps each error response component to its status.
var errorStatus = map[string]string{
	"BadCursor": "400", "NotFound": "404", "NotFoundPage": "404",
	"NotAcceptable": "406", "Unavailable": "503",
}

func okResponse(rt route, withBody bool) obj {
	h := obj{
		"ETag":          ref("headers", "ETag"),
		"Last-Modified": ref("headers", "LastModified"),
		"Cache-Control": ref("headers", "CacheControl"),
		"Vary":          ref("headers", "Vary"),
	}
	if rt.cors {
		h["Access-Control-Allow-Origin"] = ref("headers", "AllowOrigin")
	}
	if rt.link {
		h["Link"] = ref("headers", "Link")
	}
	resp := obj{"description": rt.summary, "headers": h}
	if withBody {
		resp["content"] = rt.content
	}
	return resp
}

func notModifiedResponse(rt route) obj {
	h := obj{"ETag": ref("headers", "ETag"), "Cache-Control": ref("headers", "CacheControl"), "Vary": ref("headers", "Vary")}
	if rt.cors {
		h["Access-Control-Allow-Origin"] = ref("headers", "AllowOrigin")
	}
	return obj{"description": "Not modified: the validators of the request match", "headers": h}
}

func ref(kind, name string) obj { return obj{"$ref": "#/components/" + kind + "/" + name} }
