package server

import "net/http"

// static answers /static/<file> from the theme (lookupAsset found it):
// fingerprinted names are cached for a year as immutable, plain names like
// any document.
func (s *Server) static(w http.ResponseWriter, r *http.Request, m match) {
	s.serve(w, r, m, m.st.theme.assets[m.value])
}

// sdk answers /sdk/blog-client.js, the JavaScript client, with CORS so
// that pages on other origins can import it.
func (s *Server) sdk(w http.ResponseWriter, r *http.Request, m match) {
	s.serve(w, r, m, m.st.theme.sdk)
}
