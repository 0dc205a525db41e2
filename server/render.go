package server

import (
	"sync"

	"folio/pipeline"
	"folio/render"
)

// renders is what rendering needs for one state: a Renderer for its
// configuration, a resolver over its visible posts, and each post's Result
// once made.
type renders struct {
	renderer *render.Renderer
	resolver render.Resolver
	results  sync.Map // *pipeline.Post → *lazyResult
}

type lazyResult struct {
	once sync.Once
	res  render.Result
}

// rendered returns p's body rendered for st: its HTML, summary and
// Markdown alternate. Each post is rendered once per state, on first use;
// links and refs resolve against the posts st shows, so a link to a post
// that is not published renders as its text alone. The problems rendering
// finds are logged with the post's file and line.
func (s *Server) rendered(st *state, p *pipeline.Post) render.Result {
	rs := st.renders()
	v, _ := rs.results.LoadOrStore(p, &lazyResult{})
	l := v.(*lazyResult)
	l.once.Do(func() {
		l.res = rs.renderer.Render(p, rs.resolver)
		for _, is := range l.res.Issues {
			s.log.Warn("render", "path", p.File, "line", is.Line, "message", is.Message)
		}
	})
	return l.res
}

// renders returns st's rendering context, made on first use.
func (st *state) renders() *renders {
	return stateValue(st, "renders", func() *renders {
		cfg := st.snap.Config
		return &renders{
			renderer: render.New(render.Options{BaseURL: cfg.BaseURL, Section: cfg.Section, Unsafe: cfg.Markup.Unsafe}),
			resolver: render.NewIndex(st.snap.Posts, nil),
		}
	})
}
