package server

import (
	"net/http"
	"strings"

	"folio/render"
)

// The API page (/api/, and /api.md): the service for people, made from
// the route table like the OpenAPI document, so it lists every endpoint
// the server answers, what each returns and a curl line to try it, with
// this site's real URLs. The API catalog names it as the service-doc.

// An endpoint is one documented row as the API page shows it.
type endpoint struct {
	Path, Summary, Description string
	Types                      []string
	Negotiates                 bool
	// Example is a URL of the row on this site ("" when the site has
	// nothing there yet); Curl the command that fetches it.
	Example, Curl string
}

// endpoints lists the rows the OpenAPI document describes for st
// (docRows: / and /index.md as st answers them), with examples.
func endpoints(st *state) []endpoint {
	cfg := st.snap.Config()
	var out []endpoint
	rows := docRows(st)
	for i := range rows {
		rt := &rows[i]
		if rt.Doc == nil || rt.Dev {
			continue
		}
		e := endpoint{Path: docPath(rt.Path), Summary: rt.Doc.Summary, Description: rt.Doc.Description, Types: rt.Types, Negotiates: rt.Negotiates}
		if p, ok := examplePath(st, rt.Path); ok {
			e.Example = cfg.AbsURL(strings.TrimPrefix(p, "/"))
			e.Curl = "curl " + e.Example
			if rt.Negotiates {
				e.Curl = "curl -H 'Accept: text/markdown' " + e.Example
			}
		}
		out = append(out, e)
	}
	return out
}

// examplePath fills a row's path with a value this site has: its newest
// post, a bundle file, the first cursor, a theme asset.
func examplePath(st *state, path string) (string, bool) {
	if !strings.Contains(path, "{") {
		return path, true
	}
	posts := st.snap.Posts()
	fill := map[string]string{"{cursor}": "0", "{asset...}": "style.css"}
	if len(posts) > 0 {
		fill["{slug}"] = escapePath(posts[0].Slug)
		for _, p := range posts {
			if len(p.Resources) > 0 {
				if strings.Contains(path, "{file}") {
					fill["{slug}"] = escapePath(p.Slug)
				}
				fill["{file}"] = escapePath(p.Resources[0])
				break
			}
		}
	}
	for k, v := range fill {
		path = strings.ReplaceAll(path, k, v)
	}
	return path, !strings.Contains(path, "{")
}

// apiPage answers /api/: the page, or its Markdown when Accept prefers it.
func (s *Server) apiPage(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	s.negotiated(w, r, m,
		func() (*rep, error) { return s.apiPageRep(st) },
		func() (*rep, error) { return s.apiMarkdownRep(st) })
}

// apiMarkdown answers /api.md.
func (s *Server) apiMarkdown(w http.ResponseWriter, r *http.Request, m match) {
	rp, err := s.apiMarkdownRep(m.st)
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

const (
	apiTitle       = "API"
	apiDescription = "Every endpoint of this blog's read-only HTTP API, what it returns, and how to call it."
)

func (s *Server) apiPageRep(st *state) (*rep, error) {
	return st.memo("page:api", func() (*rep, error) {
		cfg := st.snap.Config()
		pg := s.newPage(st, "api")
		pg.Title, pg.Description = apiTitle, apiDescription
		pg.Canonical = cfg.AbsURL(apiPagePath)
		pg.Markdown = cfg.AbsURL("api.md")
		pg.Endpoints = endpoints(st)
		return htmlRep(st, pg, newest(st, st.snap.Posts()))
	})
}

func (s *Server) apiMarkdownRep(st *state) (*rep, error) {
	return st.memo("md:api", func() (*rep, error) {
		cfg := st.snap.Config()
		var b strings.Builder
		b.WriteString(apiDescription + " No key, no account: every endpoint answers GET and HEAD to anyone.\n\n")
		b.WriteString("- OpenAPI 3.1 description: " + cfg.AbsURL("openapi.json") + "\n")
		b.WriteString("- API catalog (RFC 9727): " + cfg.AbsURL(catalogPath) + "\n")
		b.WriteString("- Agent skill: " + cfg.AbsURL(skillPath) + "\n\n")
		b.WriteString("## Endpoints\n")
		for _, e := range endpoints(st) {
			b.WriteString("\n### " + e.Path + "\n\n" + mdLine(e.Summary) + ".")
			if e.Description != "" {
				b.WriteString(" " + mdLine(e.Description))
			}
			if len(e.Types) > 0 {
				b.WriteString(" Returns " + strings.Join(e.Types, " or ") + ".")
			}
			b.WriteString("\n")
			if e.Curl != "" {
				b.WriteString("\n```sh\n" + e.Curl + "\n```\n")
			}
		}
		b.WriteString("\n## The JavaScript client\n\n")
		b.WriteString("A dependency-free ES module for browsers and Node 18+ (in Node, save the file and import it from disk):\n\n")
		b.WriteString("```js\nimport { createClient } from \"" + cfg.AbsURL(sdkPath) + "\";\n")
		b.WriteString("const blog = createClient(\"" + cfg.AbsURL("") + "\");\n")
		b.WriteString("const posts = await blog.search(\"your words\");\n")
		b.WriteString("const text = posts.length ? await blog.getMarkdown(posts[0]) : \"\";\n```\n")
		body := render.PageDocument(apiTitle, apiDescription, cfg.AbsURL(apiPagePath), b.String())
		return markdownOf(body, cfg.AbsURL(apiPagePath), latest(newest(st, st.snap.Posts()), st.theme.loaded), cfg.Agents.Signals), nil
	})
}

// redirectAPI sends /api to /api/.
func (s *Server) redirectAPI(w http.ResponseWriter, r *http.Request, m match) {
	s.moved(w, m, m.st.snap.Config().AbsURL(apiPagePath))
}
