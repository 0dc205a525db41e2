package server

import (
	"bytes"
	_ "embed"
	"html"
	"net/http"
	"sync"
	"time"
)

// The live-reload script (folio dev only). It is a same-origin file, so
// the pages' Content-Security-Policy (script-src 'self') needs no
// exception, and it is added to pages only when Options.Dev is set: serve
// and build never carry it.

//go:embed live.js
var liveJS []byte

// livePath is where the script is served; the theme's layout links it
// ({{if .Dev}}…{{end}}) and liveInject adds the link when a theme does not.
const livePath = "/_folio/live.js"

var liveScriptRep = sync.OnceValue(func() *rep {
	return newRep(contentType(livePath), liveJS, time.Now())
})

// liveScript answers /_folio/live.js.
func (s *Server) liveScript(w http.ResponseWriter, r *http.Request, m match) {
	s.serve(w, r, m, liveScriptRep())
}

// liveInject prepares a dev page: it adds <meta name="folio-live"> with
// the version the page was rendered from (the script sends it when it
// connects, so the server can tell a stale page), and the script itself
// when the theme's layout does not link it. Both go at the end of the
// head, else at the start of the body, else at the end.
func liveInject(page []byte, version string) []byte {
	add := `<meta name="folio-live" content="` + html.EscapeString(version) + `">`
	if !bytes.Contains(page, []byte("_folio/live.js")) {
		add += `<script src="` + livePath + `" defer></script>`
	}
	at := indexFold(page, "</head")
	if at < 0 {
		if b := indexFold(page, "<body"); b >= 0 {
			if end := bytes.IndexByte(page[b:], '>'); end >= 0 {
				at = b + end + 1
			}
		}
	}
	if at < 0 {
		at = len(page)
	}
	out := make([]byte, 0, len(page)+len(add))
	out = append(out, page[:at]...)
	out = append(out, add...)
	return append(out, page[at:]...)
}

// indexFold finds s, lower-case ASCII, in b ignoring ASCII case. (Not
// bytes.ToLower: lower-casing other letters may change their length.)
func indexFold(b []byte, s string) int {
	for i := 0; i+len(s) <= len(b); i++ {
		j := 0
		for j < len(s) && lowerASCII(b[i+j]) == s[j] {
			j++
		}
		if j == len(s) {
			return i
		}
	}
	return -1
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
