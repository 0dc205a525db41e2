package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// preflight runs the start-up checks every command shares before the
// command does any work or binds a port, so that one mistake gets one
// message and one exit status from check, build, serve and dev alike: a
// plain "folio: …" line on stderr (no log line: nothing has started) and
// exit 2, the status for a mistake in the config or the flags. For serve
// and dev it also prints the empty-section hint (sectionhint.go). ok is false when the
// command must not run; code is then its exit status.
func preflight(o *options, stderr io.Writer) (code int, ok bool) {
	cfg, err := loadConfig(o)
	if err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return 2, false
	}
	if err := checkAddr(o); err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return 2, false
	}
	if err := statFolder("content folder", cfg.ContentDir); err != nil {
		fmt.Fprintf(stderr, "folio: %v (set --content or contentDir in %s)\n", err, configName(o))
		return 2, false
	}
	if err := checkSiteDir(cfg.SiteDir); err != nil {
		fmt.Fprintf(stderr, "folio: %v (set siteDir in %s)\n", err, configName(o))
		return 2, false
	}
	if o.command == "check" || o.command == "build" {
		return 0, true // they count it as a problem (sectionProblems)
	}
	if hint := sectionHint(cfg.ContentDir, cfg.Section, configName(o)); hint != "" {
		fmt.Fprintf(stderr, "folio: %s\n", hint)
	}
	return 0, true
}

// checkSiteDir checks the folder that replaces the embedded theme. Every
// command checks it: check is the gate before a deploy, so a siteDir that
// would stop serve or build fails check too. (Once dev runs, a site
// folder that breaks falls back to the embedded theme with the error in
// the page.)
func checkSiteDir(dir string) error {
	if dir == "" {
		return nil
	}
	return statFolder("siteDir", dir)
}

// configName is the config file to point the user at: the one given, else
// the default one (which may not exist yet).
func configName(o *options) string {
	if o.config != "" {
		return o.config
	}
	return "config.toml"
}

// checkAddr rejects a listen address that cannot be bound whatever the
// machine: no port, or a port that is neither a number up to 65535 nor a
// service name. (Whether the host resolves or the port is free is known
// only when listening.) check does not listen; build only names the
// address in its output.
func checkAddr(o *options) error {
	addr, from := o.addr, "--addr "+o.addr
	switch {
	case o.command == "check":
		return nil
	case o.addr != "":
	case o.command == "serve" && os.Getenv("PORT") != "":
		addr = ":" + os.Getenv("PORT")
		from = "PORT=" + os.Getenv("PORT")
	default:
		return nil // the command's default
	}
	_, port, err := net.SplitHostPort(addr)
	if err != nil {
		var ae *net.AddrError
		if errors.As(err, &ae) {
			err = errors.New(ae.Err)
		}
		if isDigits(addr) {
			return fmt.Errorf("%s: %w (did you mean :%s?)", from, err, addr)
		}
		return fmt.Errorf("%s: %w (want host:port, as in 127.0.0.1:8080 or :8080)", from, err)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return fmt.Errorf("%s: invalid port %q (want a number up to 65535)", from, port)
	}
	return nil
}

// listen binds addr. Its error reads "listen 127.0.0.1:8080: address
// already in use": the address as the user wrote it and the system's
// reason, without Go's "listen tcp … bind:" layers.
func listen(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		var se *os.SyscallError
		var oe *net.OpError
		switch {
		case errors.As(err, &se):
			err = se.Err
		case errors.As(err, &oe):
			err = oe.Err
		}
		return nil, fmt.Errorf("listen %s: %w", addr, err)
	}
	return ln, nil
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
