package server

import (
	"net/http"
	"strconv"
	"strings"
	"time"
	"unique"

	"folio/agents"
	"folio/pipeline"
)

// What agents, and the probes that grade sites for them, look for: the
// robots.txt, the API catalog, the Agent Skills index and its SKILL.md,
// llms-full.txt, and the headers every page and Markdown answer carries
// (Link, Content-Signal, x-markdown-tokens). The bytes come from package
// agents; this file serves them from the snapshot.

const (
	catalogPath    = ".well-known/api-catalog"
	skillIndexPath = ".well-known/agent-skills/index.json"
	skillPath      = ".well-known/agent-skills/" + agents.SkillName + "/SKILL.md"
	apiPagePath    = "api/"
	plainText      = "text/plain; charset=utf-8"
)

// pageLink is the Link header of an HTML page: the API catalog and the
// OpenAPI description (RFC 8288; what agents look for on every page),
// then the page's Markdown twin when it has one.
func pageLink(cfg *pipeline.Config, twin string) string {
	v := "<" + cfg.AbsURL(catalogPath) + `>; rel="api-catalog", <` + cfg.AbsURL("openapi.json") + `>; rel="service-desc"; type="application/json"`
	if twin != "" {
		v += ", <" + twin + `>; rel="alternate"; type="text/markdown"`
	}
	return v
}

// setAgentHeaders sets rp's Link, Content-Signal and, when tokens is not
// "", x-markdown-tokens values: slices of one array (see prepareHeaders),
// the signal the process's one copy of it, as most pages share it.
func (rp *rep) setAgentHeaders(link, signal, tokens string) {
	vals := [3]string{link, unique.Make(signal).Value(), tokens}
	all := vals[:]
	rp.link, rp.signal = all[0:1:1], all[1:2:2]
	if tokens != "" {
		rp.tokens = all[2:3:3]
	}
}

// markdownOf is a Markdown representation whose canonical page is page,
// with the page's Content Signals and its size in tokens.
func markdownOf(body []byte, page string, mod time.Time, sig agents.Signals) *rep {
	rp := newRep(markdownType, body, mod)
	rp.setAgentHeaders("<"+page+`>; rel="canonical"`, sig.String(), strconv.Itoa(agents.EstimateTokens(body)))
	return rp
}

// siteOwn answers p with the site's own file at p (a static/robots.txt,
// static/llms.txt) byte for byte, as Hugo publishes it, and reports
// whether there was one: where there is, folio's own answer at p is not
// made.
func (s *Server) siteOwn(w http.ResponseWriter, r *http.Request, m match, p string) bool {
	own, ok := lookupSiteFile(m.st, p)
	if ok {
		m.site = own
		s.siteFile(w, r, m)
	}
	return ok
}

// robots answers /robots.txt: the site's own (a static/robots.txt) byte
// for byte, else folio's, from the site's agents policy.
func (s *Server) robots(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	if s.siteOwn(w, r, m, "/robots.txt") {
		return
	}
	rp, _ := st.memo("robots.txt", func() (*rep, error) {
		cfg := st.snap.Config()
		rp := newRep(plainText, agents.Robots(cfg.Agents, cfg.AbsURL("sitemap.xml")), st.theme.loaded)
		return rp, nil
	})
	s.serve(w, r, m, rp)
}

// apiCatalog answers /.well-known/api-catalog (RFC 9727).
func (s *Server) apiCatalog(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, _ := st.memo("api-catalog", func() (*rep, error) {
		cfg := st.snap.Config()
		body := agents.Catalog(agents.CatalogLinks{
			Anchor:      cfg.AbsURL(""), // the API's base URL (CONTRACT, API catalog)
			ServiceDesc: agents.Link{Href: cfg.AbsURL("openapi.json"), Type: mediaTypeJSON},
			ServiceDoc:  agents.Link{Href: cfg.AbsURL(apiPagePath), Type: mediaTypeHTML},
			Alternates: []agents.Link{
				{Href: cfg.AbsURL("rss.xml"), Type: "application/rss+xml"},
				{Href: cfg.AbsURL("llms.txt"), Type: "text/plain"},
			},
		})
		return newRep(agents.CatalogType, body, st.theme.loaded), nil
	})
	s.serve(w, r, m, rp)
}

// skillSite is what the skill says about st's blog.
func skillSite(st *state) agents.SkillSite {
	cfg := st.snap.Config()
	site := agents.SkillSite{
		Title: cfg.Title, Description: cfg.Description, Home: siteURL(st),
		Posts: cfg.AbsURL("api/posts.json"), FirstPage: cfg.AbsURL("api/posts/cursor/0.json"),
		CursorPage: cfg.AbsURL("api/posts/cursor/") + "{cursor}.json", PageSize: cfg.API.PageSize,
		Feed: cfg.AbsURL("rss.xml"), LLMs: cfg.AbsURL("llms.txt"), LLMsFull: cfg.AbsURL("llms-full.txt"),
		OpenAPI: cfg.AbsURL("openapi.json"), Client: cfg.AbsURL(sdkPath), Directory: directoryURL(st),
	}
	if posts := st.snap.Posts(); len(posts) > 0 {
		site.ExamplePost = cfg.AbsURL(st.snap.MarkdownURLOf(posts[0]))
	}
	return site
}

// skillRep is the SKILL.md of search-blog-posts, for this blog.
func (s *Server) skillRep(st *state) *rep {
	rp, _ := st.memo("skill", func() (*rep, error) {
		cfg := st.snap.Config()
		return markdownOf(agents.Skill(skillSite(st)), cfg.AbsURL(skillPath), newest(st, st.snap.Posts()), cfg.Agents.Signals), nil
	})
	return rp
}

func (s *Server) skill(w http.ResponseWriter, r *http.Request, m match) {
	s.serve(w, r, m, s.skillRep(m.st))
}

// skillIndex answers /.well-known/agent-skills/index.json; its digest is
// that of the SKILL.md bytes served.
func (s *Server) skillIndex(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, _ := st.memo("skill-index", func() (*rep, error) {
		skill := s.skillRep(st)
		body := agents.SkillIndex(skillSite(st), "/"+skillPath, skill.body)
		return newRep(mediaTypeJSON, body, skill.modified), nil
	})
	s.serve(w, r, m, rp)
}

// llmsFull answers /llms-full.txt: llms.txt's header, then every post's
// Markdown twin, newest first, each after a "---" line, up to the
// policy's size cap; when posts are left out, a last line says how many
// and links llms.txt. A site's own static/llms-full.txt is served
// instead, as it is.
func (s *Server) llmsFull(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	if s.siteOwn(w, r, m, "/llms-full.txt") {
		return
	}
	rp, err := st.memo("llms-full.txt", func() (*rep, error) {
		cfg := st.snap.Config()
		posts := st.snap.Posts()
		twins, _, err := s.llmsFullTwins(st)
		if err != nil {
			return nil, err
		}
		var b strings.Builder
		b.WriteString(llmsHeader(cfg))
		for _, twin := range twins {
			b.WriteString(llmsFullSep)
			b.Write(twin.body)
		}
		if len(twins) < len(posts) {
			b.WriteString(llmsFullNote(len(posts)-len(twins), cfg))
		}
		return newRep(plainText, []byte(b.String()), newest(st, posts)), nil
	})
	if err != nil {
		s.internalError(w, r, m, err)
		return
	}
	s.serve(w, r, m, rp)
}

// llmsFullTwins are the twins llms-full.txt holds: those of the first
// posts, newest first, that fit under the policy's size cap, room kept
// for the note that ends a file that leaves posts out, so the file never
// exceeds the cap. looked is how many posts decided it: those held and,
// when one did not fit, that one (Fingerprint hashes their bodies).
func (s *Server) llmsFullTwins(st *state) (twins []*rep, looked int, err error) {
	held, looked, err := llmsFullCut(st, func(p *pipeline.Post) (int, error) {
		twin, err := s.markdownRep(st, p)
		if err != nil {
			return 0, err
		}
		twins = append(twins, twin)
		return len(twin.body), nil
	})
	return twins[:min(held, len(twins))], looked, err
}

// llmsFullCut decides llms-full.txt from the lengths of its posts' twins,
// asked post by post, newest first: the file holds the first held posts, and looked
// posts decided it (those held and, when one did not fit, that one).
func llmsFullCut(st *state, size func(*pipeline.Post) (int, error)) (held, looked int, err error) {
	cfg := st.snap.Config()
	posts := st.snap.Posts()
	reserve := len(llmsFullNote(len(posts), cfg))
	total := len(llmsHeader(cfg))
	for i, p := range posts {
		n, err := size(p)
		if err != nil {
			return i, i + 1, err
		}
		need := total + len(llmsFullSep) + n
		if i < len(posts)-1 {
			need += reserve
		}
		if need > cfg.Agents.FullMaxBytes {
			return i, i + 1, nil
		}
		total += len(llmsFullSep) + n
	}
	return len(posts), len(posts), nil
}

// llmsFullSep comes before each post of llms-full.txt.
const llmsFullSep = "\n---\n\n"

// llmsFullNote is the last line of an llms-full.txt that leaves left
// posts out.
func llmsFullNote(left int, cfg *pipeline.Config) string {
	noun := "posts"
	if left == 1 {
		noun = "post"
	}
	return llmsFullSep + strconv.Itoa(left) + " more " + noun + " did not fit in this file; every post is listed in [llms.txt](" + cfg.AbsURL("llms.txt") + ").\n"
}
