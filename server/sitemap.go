package server

import (
	"bytes"
	"net/http"
	"time"
)

// sitemap answers /sitemap.xml: every HTML page (home, blog directory,
// the API page, articles) with the date its content last changed.
func (s *Server) sitemap(w http.ResponseWriter, r *http.Request, m match) {
	st := m.st
	rp, _ := st.memo("sitemap.xml", func() (*rep, error) {
		return newRep("application/xml", sitemapBody(st), newest(st, st.snap.Posts())), nil
	})
	s.serve(w, r, m, rp)
}

func sitemapBody(st *state) []byte {
	cfg := st.snap.Config()
	all := newest(st, st.snap.Posts())
	var b bytes.Buffer
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	b.WriteString(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + "\n")
	sitemapURL(&b, cfg.AbsURL(""), all)
	sitemapURL(&b, cfg.AbsURL(cfg.Section+"/"), all)
	sitemapURL(&b, cfg.AbsURL(apiPagePath), all)
	for _, p := range st.snap.Posts() {
		sitemapURL(&b, cfg.AbsURL(p.Path(cfg.Section)), modified(p))
	}
	b.WriteString("</urlset>\n")
	return b.Bytes()
}

func sitemapURL(b *bytes.Buffer, loc string, mod time.Time) {
	b.WriteString("  <url><loc>" + xmlEscape(loc) + "</loc>")
	if !mod.IsZero() {
		b.WriteString("<lastmod>" + jsonTime(mod) + "</lastmod>")
	}
	b.WriteString("</url>\n")
}
