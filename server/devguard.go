package server

import (
	"net"
	"net/http"
	"net/url"
	"strings"
)

// folio dev serves one author on their own machine, drafts included, and
// trusts nothing else. Two kinds of page could otherwise read it:
//
//   - a page on another origin, with fetch: dev sends no CORS header, so
//     the browser keeps the answer from it, and a request the browser
//     marks cross-site, or whose Origin is not dev's own, is refused
//     (403) before anything is read;
//   - a page on a name the attacker controls that resolves to 127.0.0.1
//     (DNS rebinding): it is same-origin to the browser, so only the Host
//     header tells; dev answers only loopback names and addresses, the
//     base URL's host and the hosts given in Options.Hosts (421).
//
// serve has neither check: it publishes what anyone may read, and every
// URL it emits comes from the base URL, never from Host.

// devRefusal is the status and detail dev answers r with instead of
// serving it, or 0 when r may be served.
func (s *Server) devRefusal(r *http.Request, base string) (int, string) {
	if !s.hostAllowed(r.Host, base) {
		return http.StatusMisdirectedRequest, "folio dev answers only its own addresses (localhost, the base URL's host or --addr), not " + quoteHost(r.Host)
	}
	if r.Header.Get("Sec-Fetch-Site") == "cross-site" {
		return http.StatusForbidden, "folio dev does not answer requests from other sites"
	}
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host, base) {
		return http.StatusForbidden, "folio dev does not answer requests from another origin"
	}
	return 0, ""
}

// hostAllowed reports whether a Host header names dev itself.
func (s *Server) hostAllowed(hostport, base string) bool {
	host := hostOnly(hostport)
	if host == "" {
		return false
	}
	if isLoopbackHost(host) {
		return true
	}
	if b, err := url.Parse(base); err == nil && strings.EqualFold(host, b.Hostname()) {
		return true
	}
	for _, h := range s.opts.Hosts {
		if strings.EqualFold(host, h) {
			return true
		}
	}
	return false
}

// sameOrigin reports whether an Origin header is the origin the request
// was sent to (http://Host) or the base URL's.
func sameOrigin(origin, hostport, base string) bool {
	o, err := url.Parse(origin)
	if err != nil || o.Host == "" {
		return false // "null" (a sandboxed frame, a file) included
	}
	if o.Scheme == "http" && strings.EqualFold(o.Host, hostport) {
		return true
	}
	b, err := url.Parse(base)
	return err == nil && strings.EqualFold(o.Scheme, b.Scheme) && strings.EqualFold(o.Host, b.Host)
}

// hostOnly is the host of a Host header, without port or IPv6 brackets.
func hostOnly(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		return h
	}
	return strings.Trim(hostport, "[]")
}

// isLoopbackHost reports localhost (and names below it, which resolve to
// loopback per RFC 6761) and loopback addresses.
func isLoopbackHost(host string) bool {
	host = strings.TrimSuffix(strings.ToLower(host), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// quoteHost is a Host header for a message: quoted, bounded, printable.
func quoteHost(h string) string {
	if len(h) > 100 {
		h = h[:100] + "…"
	}
	return strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return '?'
		}
		return r
	}, `"`+h+`"`)
}
