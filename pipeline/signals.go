package pipeline

import "folio/agents"

// Signals are the Content Signals of p's pages (sent as Content-Signal):
// the site's ([folio.agents]), narrowed by p's own contentSignal front
// matter. A page can only narrow them; what it writes otherwise is one of
// signalWarnings' warnings and leaves the site's signal in force.
func (s *Snapshot) Signals(p *Post) agents.Signals {
	sig, _ := s.config.Agents.Signals.Narrow(pageSignals(p))
	return sig
}

// pageSignals is p's contentSignal table, nil when it has none (or not a
// table: a warning).
func pageSignals(p *Post) map[string]any {
	v, _ := p.Param("contentsignal")
	m, _ := v.(map[string]any)
	return m
}

// signalWarnings are the warnings about p's contentSignal: a value other
// than yes or no, an unknown signal, one that would widen the site's, or
// a value that is not a table at all.
func (s *Snapshot) signalWarnings(p *Post) []Problem {
	v, ok := p.Param("contentsignal")
	if !ok {
		return nil
	}
	warn := func(msg string) Problem {
		return Problem{Path: s.display(p.File), Line: 1, Message: msg, Severity: Warning}
	}
	m, isTable := v.(map[string]any)
	if !isTable {
		return []Problem{warn("contentSignal must be a table of signals, such as {ai-train: no}; the site's signals apply")}
	}
	_, texts := s.config.Agents.Signals.Narrow(m)
	out := make([]Problem, len(texts))
	for i, t := range texts {
		out[i] = warn(t)
	}
	return out
}
