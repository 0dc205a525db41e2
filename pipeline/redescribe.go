package pipeline

import (
	"runtime"
	"sync"

	"folio/internal/layered"
)

// redescribe returns s's units with the description of every post whose
// front matter has none made again by s's Options.Describe (see
// Reconfigured); the other units are shared. Each such post is a new
// Post, the old one untouched: a snapshot that shares it keeps its own.
func (s *Snapshot) redescribe() layered.Map[string, *unit] {
	units := s.units.Next()
	var keys []string
	for k, u := range s.units.All {
		if u != nil && u.post != nil && !ownDescription(u.post) {
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
