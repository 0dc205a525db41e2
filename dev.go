package main

import (
	"context"
	"fmt"
	"net"
	"time"

	"folio/front"
)

// runDev is the author's server: it listens (127.0.0.1:1313 by default),
// loads the site with the live-reload script in every page, then applies
// every change to the content, the theme and the config until SIGTERM or
// SIGINT. It differs from serve by its host.Spec alone.
func runDev(ctx context.Context, o *options, std stdio) error {
	start := time.Now()
	std, closeLog := unblockedLog(std)
	defer closeLog()
	ln, err := listen(o)
	if err != nil {
		return err
	}
	defer ln.Close()
	spec := o.spec().ForDev(o.drafts, addrHosts(o.addr))
	spec.Addr, spec.Log, spec.Started = ln.Addr(), std.log, start
	spec.Cache, spec.SaveCache = cacheFile(o, spec), true
	h, err := load(ctx, spec, std, nil)
	if h == nil {
		return err // nil when stopped while loading
	}
	if w := baseWarning(o, h.Snapshot().Config(), ln.Addr()); w != "" {
		fmt.Fprintln(std.err, w)
	}
	handler := front.LoopbackRedirect(h.Server(), func() string { return h.Snapshot().Config().BaseURL })
	// Live-reload streams never end by themselves; the drain would wait
	// for them.
	return serveHost(ctx, h, ln, nil, handler, front.Options{OnShutdown: h.Server().CloseEvents, Log: std.log}, std, start)
}

// addrHosts are the host names dev answers because --addr names them:
// its host, or every address of this machine when it is 0.0.0.0 or ::
// (a phone on the LAN asks for the machine's address). Loopback names
// and the base URL's host are answered anyway.
func addrHosts(addr string) []string {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsUnspecified() {
		return []string{host}
	}
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var hosts []string
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok {
			hosts = append(hosts, n.IP.String())
		}
	}
	return hosts
}
