package server

import (
	"cmp"
	"slices"
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

	mu       sync.Mutex
	problems []pipeline.Problem // what rendering found so far
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
			// Logged as the pipeline's problems are (reload.go), by the path
			// check prints.
			pr := pipeline.Problem{Path: st.snap.DisplayPath(p.File), Line: is.Line, Message: is.Message, Severity: is.Severity}
			s.log.Warn("problem", "path", pr.Path, "line", pr.Line, "message", pr.Message, "severity", pr.Severity.String())
			rs.mu.Lock()
			rs.problems = append(rs.problems, pr)
			rs.mu.Unlock()
		}
		if len(l.res.Issues) > 0 && s.opts.Dev {
			s.events.wake() // the overlay shows them (liveProblems)
		}
	})
	return l.res
}

// RenderProblems returns the problems rendering has found so far in the
// current snapshot's posts (links and refs to posts that are not
// published), by path and line. Posts render on first use, so this is
// every such problem once every post has been asked for, as the static
// export does; folio dev shows them in the overlay as pages render.
func (s *Server) RenderProblems() []pipeline.Problem { return s.current.Load().renderProblems() }

// renderProblems is what rendering found so far in st, by path and line.
//
// A state nothing has been rendered from has found none, and its
// rendering context (an index of every page of the site) is not made just
// to say so: folio dev asks on every change, before any page is.
func (st *state) renderProblems() []pipeline.Problem {
	if !hasValue(st, rendersKey) {
		return nil
	}
	rs := st.renders()
	rs.mu.Lock()
	out := slices.Clone(rs.problems)
	rs.mu.Unlock()
	slices.SortFunc(out, func(a, b pipeline.Problem) int {
		return cmp.Or(cmp.Compare(a.Path, b.Path), cmp.Compare(a.Line, b.Line), cmp.Compare(a.Message, b.Message))
	})
	return out
}

const rendersKey = "renders"

// renders returns st's rendering context, made on first use.
func (st *state) renders() *renders {
	return stateValue(st, rendersKey, func() *renders {
		r, ix := render.ForSnapshotAfter(st.snap, st.prevResolver)
		return &renders{renderer: r, resolver: ix}
	})
}

// resolverToKeep is what the next state's render context may start from:
// st's resolver once made, else the one st would have started from. It
// never waits for st's context to be made.
func (st *state) resolverToKeep() render.Resolver {
	if rs, ok := madeValue[*renders](st, rendersKey); ok {
		return rs.resolver
	}
	return st.prevResolver
}
