package pipeline

import (
	"runtime"
	"sync"

	"folio/internal/layered"
)

// A Redescribe says which posts a reload describes again
// (Reconfigured): those whose description may differ under the new
// Options.Describe. A description is the post's summary rendered; what
// renders it is the markup settings and render hooks, for every post, and
// besides them, for a post whose body calls a shortcode (a call inside
// another's is inside a call at the top), the shortcode and partial
// templates, the i18n and data files and the site's settings they see.
type Redescribe int

const (
	// RedescribeNone: nothing a description is made from changed.
	RedescribeNone Redescribe = iota
	// RedescribeShortcodes: only what shortcodes make may differ (a
	// shortcode, partial, i18n or data file, the site's title or
	// params): the posts whose body calls a shortcode.
	RedescribeShortcodes
	// RedescribeAll: the markup settings or render hooks may render any
	// post otherwise: every post.
	RedescribeAll
)

// redescribe returns s's units with the description of every post whose
// front matter has none, and which says may differ, made again by s's
// Options.Describe (see Reconfigured); the other units are shared. Each
// such post is a new Post, the old one untouched: a snapshot that shares
// it keeps its own.
func (s *Snapshot) redescribe(which Redescribe) layered.Map[string, *unit] {
	units := s.units.Next()
	var keys []string
	for k, u := range s.units.All {
		if u == nil || u.post == nil || ownDescription(u.post) {
			continue
		}
		if which == RedescribeAll || which == RedescribeShortcodes && hasShortcode(u.post.Body) {
			keys = append(keys, k)
		}
	}
	done := make([]*unit, len(keys))
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(keys))
	for w := range workers {
		wg.Add(1)
		go func() { // Describe is safe from several goroutines (Options)
			defer wg.Done()
			for i := w; i < len(keys); i += workers {
				u := unitAt(s.units, keys[i])
				p := *u.post
				p.Description = ""
				p.Description = s.opts.Describe(&p)
				n := *u
				n.post = &p
				// As readUnit has it: a description made by rendering
				// shortcodes is not cached; and the cache's post is no
				// longer this one.
				n.cacheable = n.cacheable && !hasShortcode(p.Body)
				n.cached = false
				done[i] = &n
			}
		}()
	}
	wg.Wait()
	for i, k := range keys {
		units.Set(k, done[i])
	}
	return units
}

// ownDescription reports whether p's front matter gives its description
// (description, else summary, as decodeFields reads them), rather than
// Options.Describe.
func ownDescription(p *Post) bool {
	for _, key := range [...]string{"description", "summary"} {
		if v, ok := p.Param(key); ok {
			d := fieldDecoder{fm: map[string]any{key: v}}
			if d.str(key) != "" {
				return true
			}
		}
	}
	return false
}
