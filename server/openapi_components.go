package server

import (
	"strconv"

	"folio/pipeline"
)

// components are the schemas, parameters, headers and shared responses the
// routes refer to.
func components(cfg *pipeline.Config, depth int) obj {
	return obj{
		"schemas":    schemas(cfg),
		"parameters": parameters(depth),
		"headers":    headers(cfg),
		"responses":  responses(),
	}
}

// utcSeconds is the one date format of the API: RFC 3339, UTC, whole
// seconds, "Z".
const utcSeconds = `^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$`

func schemas(cfg *pipeline.Config) obj {
	date := func(d string) obj {
		return obj{"type": "string", "format": "date-time", "pattern": utcSeconds, "description": d}
	}
	return obj{
		"Post": obj{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"slug", "title", "description", "tags", "url", "markdownUrl"},
			"properties": obj{
				"slug":        obj{"type": "string", "minLength": 1, "description": "The last segment of the post's URL."},
				"title":       obj{"type": "string"},
				"description": obj{"type": "string", "description": "The front matter's description, else its summary, else empty."},
				"category":    obj{"type": "string", "minLength": 1, "description": "Left out when the post has none."},
				"tags":        obj{"type": "array", "items": obj{"type": "string"}},
				"date":        date("The publish date; absent for a page without a date (Hugo publishes it, listed last)."),
				"updated":     date("The front matter's lastmod; left out when unset."),
				"url":         obj{"type": "string", "format": "uri", "description": "The canonical page URL."},
				"markdownUrl": obj{"type": "string", "format": "uri", "description": "The article as Markdown."},
				"draft":       obj{"const": true, "description": "Only under folio dev --drafts, on posts that are not published."},
			},
		},
		"PostCollection": obj{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"items"},
			"properties": obj{
				"items": obj{"type": "array", "items": obj{"$ref": "#/components/schemas/Post"}, "description": "Every published post, newest first (publish date descending, then slug ascending)."},
			},
		},
		"CursorPage": obj{
			"type":                 "object",
			"additionalProperties": false,
			"required":             []string{"items", "nextCursor"},
			"properties": obj{
				"items":      obj{"type": "array", "maxItems": cfg.API.PageSize, "items": obj{"$ref": "#/components/schemas/Post"}},
				"nextCursor": obj{"type": []string{"string", "null"}, "pattern": pipeline.CursorPattern, "description": "The cursor of the next page; null on the last page."},
			},
		},
		"Problem": obj{
			"type":     "object",
			"required": []string{"type", "title", "status", "detail"},
			"properties": obj{
				"type":       obj{"type": "string"},
				"title":      obj{"type": "string"},
				"status":     obj{"type": "integer", "minimum": 400, "maximum": 599},
				"detail":     obj{"type": "string"},
				"acceptable": obj{"type": "array", "items": obj{"type": "string"}, "description": "On 406: the media types this URL can answer with."},
			},
		},
	}
}

func parameters(depth int) obj {
	path := func(name, desc string, schema obj) obj {
		return obj{"name": name, "in": "path", "required": true, "description": desc, "schema": schema}
	}
	o := obj{
		"asset":  path("asset", "A theme asset.", obj{"type": "string", "minLength": 1}),
		"n":      path("n", "The sitemap's number, from 1.", obj{"type": "string", "pattern": "^[1-9][0-9]*$"}),
		"cursor": path("cursor", "0 for the first page, else a nextCursor from a previous page.", obj{"type": "string", "pattern": pipeline.CursorPattern}),
		"IfNoneMatch": obj{"name": "If-None-Match", "in": "header", "required": false,
			"description": "ETags of representations the client holds; a match answers 304.", "schema": obj{"type": "string"}},
		"IfModifiedSince": obj{"name": "If-Modified-Since", "in": "header", "required": false,
			"description": "Used when there is no If-None-Match: 304 when the content has not changed since.", "schema": obj{"type": "string"}},
		"IfMatch": obj{"name": "If-Match", "in": "header", "required": false,
			"description": "ETags (or *) the representation must have (strong comparison); else 412. Evaluated first (RFC 9110 section 13.2.2).", "schema": obj{"type": "string"}},
		"IfUnmodifiedSince": obj{"name": "If-Unmodified-Since", "in": "header", "required": false,
			"description": "Used when there is no If-Match: 412 when the content has changed since.", "schema": obj{"type": "string"}},
	}
	for i := 1; i <= depth; i++ {
		n := "p" + strconv.Itoa(i)
		o[n] = path(n, "Segment "+strconv.Itoa(i)+" of a path of the site (a page, feed or file at the URL Hugo gives it), percent-encoded as needed.", obj{"type": "string", "minLength": 1})
	}
	return o
}

func headers(cfg *pipeline.Config) obj {
	h := func(desc string) obj { return obj{"description": desc, "schema": obj{"type": "string"}} }
	return obj{
		"ETag":         h("Strong validator of this representation; each content-coding has its own."),
		"LastModified": h("The newest content date (publish date or lastmod) of the posts the representation is made from."),
		"CacheControl": h("public, max-age=" + strconv.Itoa(cfg.Cache.MaxAge) + " (no-store on errors and /healthz)."),
		"Vary":         h("Accept-Encoding on compressed bodies; Accept on URLs that negotiate HTML or Markdown."),
		"AllowOrigin":  h("*"),
		"Link":         h(`On Markdown: <page URL>; rel="canonical". On pages: the Markdown alternate, rel="alternate"; type="text/markdown".`),
		"Allow":        h("GET, HEAD"),
	}
}

func responses() obj {
	problem := func(desc string) obj {
		return obj{
			"description": desc,
			"headers":     obj{"Cache-Control": obj{"description": "no-store", "schema": obj{"type": "string", "const": "no-store"}}},
			"content":     obj{"application/problem+json": obj{"schema": obj{"$ref": "#/components/schemas/Problem"}}},
		}
	}
	return obj{
		"BadCursor":          problem("The cursor is malformed: it is not 0, does not match the pattern, or does not decode."),
		"NotFound":           problem("No such resource."),
		"NotAcceptable":      problem("Accept allows neither text/html nor text/markdown; the body's acceptable array lists both."),
		"PreconditionFailed": problem("If-Match or If-Unmodified-Since does not hold for the representation."),
		"MethodNotAllowed":   withHeader(problem("Only GET, HEAD and OPTIONS are allowed."), "Allow"),
		"NotFoundPage": obj{"description": "No such page: the site's HTML 404 page.",
			"content": obj{"text/html": schemaText}},
		"NotFoundSite": obj{"description": "No such page or file: the site's HTML 404 page, or a problem for a path ending in .md or .json.",
			"content": obj{"text/html": schemaText, "application/problem+json": obj{"schema": obj{"$ref": "#/components/schemas/Problem"}}}},
		"Unavailable": obj{"description": "No snapshot is loaded.", "content": obj{"text/plain": schemaText}},
		"Options":     obj{"description": "The allowed methods.", "headers": obj{"Allow": ref("headers", "Allow")}},
		"OptionsCORS": obj{"description": "The allowed methods, with CORS preflight headers.",
			"headers": obj{"Allow": ref("headers", "Allow"), "Access-Control-Allow-Origin": ref("headers", "AllowOrigin")}},
	}
}

func withHeader(resp obj, name string) obj {
	resp["headers"].(obj)[name] = ref("headers", name)
	return resp
}
