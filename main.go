// Command folio turns a folder of Markdown posts into a read-only web
// service for people and agents. See README.md for the commands.
//
// This package is the command line and nothing else, read in this order:
// main.go, cli.go (the command table, run, and exitStatus, the one place
// errors become exit statuses), flags.go (help and mistakes spelled as
// the documentation spells flags), preflight.go (the start-up checks every
// command shares), then one file per command: check.go, build.go,
// serve.go and dev.go. Each command is a host.Spec for package host, which
// does the work, and serve and dev put package front before it.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stdout, os.Stderr))
}
