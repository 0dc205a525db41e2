// Package peers holds what the two bare servers share: one prepared answer,
// the headers folio sends with it, and the flags that choose it.
package peers

import (
	"flag"
	"fmt"
	"os"
)

// Answer is one representation as folio sends it: a gzip body and the
// headers of its 200; a request whose If-None-Match is ETag gets a 304.
type Answer struct {
	Addr   string
	ETag   string
	Body   []byte
	Header [][2]string // besides ETag and Content-Length, in folio's order
}

// Flags reads -addr, -body and -etag.
func Flags() Answer {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	body := flag.String("body", "", "file holding the gzip body")
	etag := flag.String("etag", `"x-gz"`, "the ETag, quotes included")
	flag.Parse()
	b, err := os.ReadFile(*body)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	return Answer{Addr: *addr, ETag: *etag, Body: b, Header: [][2]string{
		{"Access-Control-Allow-Origin", "*"},
		{"Cache-Control", "public, max-age=300"},
		{"Content-Encoding", "gzip"},
		{"Content-Type", "application/json"},
		{"Last-Modified", "Thu, 12 Dec 2024 22:11:00 GMT"},
		{"Vary", "Accept-Encoding"},
		{"X-Content-Type-Options", "nosniff"},
	}}
}
