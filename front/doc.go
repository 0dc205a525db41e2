// Package front is folio's HTTP front end: what stands between the
// network and the handler that answers. Listen binds the address and says
// plainly why it cannot; Serve runs an http.Server with the limits a
// server facing the internet needs, writes the access log through a
// buffer (accesslog.go), caps the connections below the open-file limit
// (conns.go), writes each response in one system call
// (coalesce.go), and shuts down gracefully, draining requests in flight;
// NewLogWriter keeps a stderr nobody reads from stopping the server
// (lines are dropped and counted instead, and the count said later);
// LoopbackRedirect sends folio dev's other loopback name to its base URL.
//
// It knows nothing of folio: it takes an http.Handler (the server of
// package server, through package host) and a listener, and imports no
// other package of this module.
package front
