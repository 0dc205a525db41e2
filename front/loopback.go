package front

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// LoopbackRedirect sends a request that names the base URL's loopback
// host otherwise (localhost for 127.0.0.1, or the other way round, same
// port) to the base URL first, and hands every other to next. base is read
// per request (the base URL can change with the config). A page's assets
// are absolute from the base URL and its Content-Security-Policy allows
// its own origin only, so such a page would load without its styles and
// scripts: the sample config says localhost, dev serves 127.0.0.1, and
// both work.
func LoopbackRedirect(next http.Handler, base func() string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if to := otherLoopback(r, base()); to != "" {
			h := w.Header()
			h.Set("Location", to)
			h.Set("Cache-Control", "no-cache")
			h.Set("X-Content-Type-Options", "nosniff")
			w.WriteHeader(http.StatusTemporaryRedirect)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// otherLoopback is the URL to send r to when its Host is another loopback
// name for base's host and port, "" otherwise.
func otherLoopback(r *http.Request, base string) string {
	b, err := url.Parse(base)
	if err != nil || strings.EqualFold(r.Host, b.Host) {
		return ""
	}
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || port != b.Port() || !isLoopback(host) || !isLoopback(b.Hostname()) {
		return ""
	}
	return strings.TrimSuffix(base, "/") + r.URL.RequestURI()
}

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return ip != nil && ip.IsLoopback()
}
