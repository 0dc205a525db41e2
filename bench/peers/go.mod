// Peers for bench/ceiling.sh and bench/api.sh: the least an HTTP server in Go can do for
// folio's exact answers, to measure how near folio comes to the ceiling of
// the server it runs on. A module of its own, so that fasthttp is never a
// dependency of folio.
module folio/bench/peers

go 1.26.8

require (
	folio v0.0.0-00010101000000-000000000000
	github.com/valyala/fasthttp v1.77.0
)

require (
	github.com/klauspost/compress v1.20.3 // indirect
	github.com/molecule-man/go-brrr v1.3.0 // indirect
	github.com/valyala/bytebufferpool v1.0.0 // indirect
	golang.org/x/sys v0.49.0 // indirect
)

replace folio => ../..
