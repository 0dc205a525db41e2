package server

import "net/http"

// static answers /static/<file> from the theme: fingerprinted names are
// cached for a year as immutable, plain names like any document.
func (s *Server) static(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	rp, ok := st.theme.assets[r.PathValue("file")]
	if !ok {
		s.notFound(w, r, st)
		return
	}
	s.serve(w, r, st, rp)
}

// sdk answers /sdk/blog-client.js, the JavaScript client, with CORS so
// that pages on other origins can import it.
func (s *Server) sdk(w http.ResponseWriter, r *http.Request) {
	st := s.load()
	s.serve(w, r, st, st.theme.sdk)
}
