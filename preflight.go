package main

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"

	"folio/host"
)

// preflight runs the start-up checks every command shares before the
// command does any work or binds a port, so that one mistake gets one
// message and one exit status from check, build, serve and dev alike: a
// plain "folio: …" line on stderr (no log line: nothing has started) and
// exit 2, the status for a mistake in the config or the flags. For serve
// and dev it also prints the empty-section hint (host.SectionHint).
func preflight(o *options, stderr io.Writer) error {
	cfg, err := host.ReadConfig(o.spec())
	if err != nil {
		return err
	}
	if err := checkAddr(o); err != nil {
		return mistake("%v", err)
	}
	name := host.ConfigFile(o.spec())
	if !cfg.ReadsContentDir() {
		// The site's mounts say where its content is (host checks those).
	} else if o.content == "" && host.NoContentYet(cfg) {
		// A Hugo site with no content/ yet (git keeps no empty folder):
		// Hugo builds its home page, feeds and taxonomies, and so does
		// folio; dev sees the folder when it comes.
	} else if err := host.CheckFolder("content folder", cfg.ContentDir); err != nil {
		return mistake("%v (set --content or contentDir in %s)", err, name)
	}
	if cfg.SiteDir != "" {
		// check is the gate before a deploy, so a siteDir that would
		// stop serve or build fails check too. (Once dev runs, a site
		// folder that breaks falls back to the embedded theme with the
		// error in the page.)
		if err := host.CheckFolder("siteDir", cfg.SiteDir); err != nil {
			return mistake("%v (set siteDir in %s)", err, name)
		}
	}
	if commands[o.command].hint {
		if hint := host.SectionHint(cfg.ContentDir, cfg.Section, name); hint != "" {
			fmt.Fprintf(stderr, "folio: %s\n", hint)
		}
	}
	return nil
}

// mistake is a start-up mistake in the flags or config: one line, exit 2.
func mistake(format string, args ...any) error {
	return &usageError{msg: "folio: " + fmt.Sprintf(format, args...)}
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

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}
