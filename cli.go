package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strings"
	"syscall"

	"folio/front"
	"folio/host"
	"folio/pipeline"
)

const usage = `folio turns a folder of Markdown posts into a read-only web service.

Usage:
  folio <command> [flags]

Commands:
  serve   production host: serves the published snapshot (SIGHUP reloads)
  dev     author's server: watches content, live-reloads browsers
  build   writes the whole site as static files (default public/)
  check   parses everything and prints every problem as path:line: message

Flags shared by every command:
  --source DIR      the site's folder, with its hugo.toml, config.toml or
                    config/ (default: the working folder)
  --config FILE     config file to read instead of the site's
  --content DIR     content folder (overrides the config)
  --addr HOST:PORT  listen address (serve :8080 or :$PORT, dev 127.0.0.1:1313);
                    for build, the address the export will be served on
  --base-url URL    absolute base URL (overrides the config)

Run "folio <command> --help" for a command's own flags; "folio --version"
prints the version.
`

// options are the parsed command line of one command.
type options struct {
	command  string
	source   string
	config   string
	content  string
	addr     string
	baseURL  string
	drafts   bool            // dev
	verbose  bool            // check
	watch    bool            // serve
	cacheDir string          // serve, dev: the parse cache's folder
	noCache  bool            // serve, dev: no parse cache
	out      string          // build
	nginx    string          // build
	cf       string          // build: the Cloudflare Workers project folder
	cfPlan   string          // build: the Workers plan whose limits apply
	set      map[string]bool // the flags given
}

// A command is one row of the command table: its help, what --addr means
// to it, its own flags, and what it does. Each lives in a file of its own
// (check.go, build.go, serve.go, dev.go).
type command struct {
	help  string
	addr  string
	flags func(fs *flag.FlagSet, o *options)
	run   func(ctx context.Context, o *options, std stdio) error
	// hint prints the empty-section hint at start; the commands that
	// gate a deploy refuse an empty section instead (host.Gate).
	hint bool
}

// stdio is where a command writes: its output, and the log that goes to
// stderr.
type stdio struct {
	out, err io.Writer
	log      *slog.Logger
}

// commands is the command table.
var commands = map[string]command{
	"serve": {
		help: "folio serve [flags]: the production host. No watcher unless --watch; SIGHUP reloads\ncontent and config; SIGTERM and SIGINT drain in-flight requests and exit 0.",
		addr: "listen address (default :8080, or :$PORT when PORT is set)",
		flags: func(fs *flag.FlagSet, o *options) {
			fs.BoolVar(&o.watch, "watch", false, "watch the content folder and reload on change")
			cacheFlags(fs, o)
		},
		run:  runServe,
		hint: true,
	},
	"dev": {
		help: "folio dev [flags]: the author's server. Watches content, site and config, live-reloads\nbrowsers and shows build errors in the page. Binds 127.0.0.1:1313 by default.",
		addr: "listen address (default 127.0.0.1:1313)",
		flags: func(fs *flag.FlagSet, o *options) {
			fs.BoolVar(&o.drafts, "drafts", false, "also show drafts, future and expired posts")
			cacheFlags(fs, o)
		},
		run:  runDev,
		hint: true,
	},
	"build": {
		help: "folio build [flags]: writes every route the server answers as static files, with\n.gz twins, into --out (default public/), or with --cloudflare a Cloudflare Workers\nproject that answers as serve does. With problems it exits 1 and leaves the\nprevious output in place.",
		addr: "the address the export will be served on: with --nginx, nginx's listen address\n(default 80); without a baseURL in the config or --base-url, the base URL's\nhost and port (default localhost:8080)",
		flags: func(fs *flag.FlagSet, o *options) {
			fs.StringVar(&o.out, "out", "public", "output folder")
			fs.StringVar(&o.nginx, "nginx", "", "also write an nginx config there (outside the output folder)")
			fs.StringVar(&o.cf, "cloudflare", "", "write a Cloudflare Workers project there instead: wrangler.jsonc, the Worker,\nand the export in its public/ (no --out)")
			fs.StringVar(&o.cfPlan, "cloudflare-plan", "free", "the Workers plan whose limits the project must fit: free or paid")
		},
		run: runBuild,
	},
	"check": {
		help: "folio check [flags]: parses everything, prints every problem as path:line: message\nand a summary; exits 1 when there is any problem.",
		addr: "not used by check (accepted, as by every command)",
		flags: func(fs *flag.FlagSet, o *options) {
			fs.BoolVar(&o.verbose, "v", false, "print every warning, not each message once; and list on stderr each published post, then each one left out and why")
		},
		run: runCheck,
	},
}

func run(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return 2
	}
	switch args[0] {
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	case "-version", "--version", "version":
		fmt.Fprintln(stdout, "folio", version())
		return 0
	}
	opts, err := parseFlags(args[0], args[1:], stdout)
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	if err == nil {
		err = preflight(opts, stderr)
	}
	if err == nil {
		std := stdio{out: stdout, err: stderr, log: slog.New(slog.NewTextHandler(stderr, nil))}
		err = commands[opts.command].run(ctx, opts, std)
	}
	return exitStatus(err, stderr)
}

// errReported ends a command that has said why already (a list of
// problems, a log line): exit status 1, nothing more printed.
var errReported = errors.New("reported")

// exitStatus is the one place errors become exit statuses: 0 for none; 2
// for a mistake in the flags or the config, which the same command makes
// again until it is fixed; 1 for anything else (content problems, a
// folder that cannot be read, a port in use). Each is one plain line on
// stderr, "folio: …", unless the command has reported it.
func exitStatus(err error, stderr io.Writer) int {
	var usage *usageError
	switch {
	case err == nil:
		return 0
	case errors.As(err, &usage):
		fmt.Fprintln(stderr, usage.msg)
		return 2
	case errors.Is(err, errReported):
		return 1
	}
	fmt.Fprintf(stderr, "folio: %v\n", err)
	if errors.Is(err, host.ErrConfig) {
		return 2
	}
	return 1
}

// parseFlags parses one command's flags. --help prints the command's help
// to stdout and returns flag.ErrHelp; a mistake is a *usageError.
func parseFlags(name string, args []string, stdout io.Writer) (*options, error) {
	cmd, ok := commands[name]
	if !ok {
		return nil, topLevelMistake(name)
	}
	o := &options{command: name}
	fset := flag.NewFlagSet("folio "+name, flag.ContinueOnError)
	// Parse would print the whole help after a mistake; the mistake is
	// reported on one line instead (flagMistake).
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	fset.StringVar(&o.source, "source", "", "the site's folder, where its config (hugo.toml, config.toml, config/) is found (default: the working folder)")
	fset.StringVar(&o.config, "config", "", "config file to read instead of the site's")
	fset.StringVar(&o.content, "content", "", "content folder (overrides contentDir)")
	fset.StringVar(&o.addr, "addr", "", cmd.addr)
	fset.StringVar(&o.baseURL, "base-url", "", "absolute base URL every emitted URL starts with")
	cmd.flags(fset, o)
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprintf(stdout, "%s\n\nFlags:\n", cmd.help)
			printFlags(stdout, fset)
			return nil, flag.ErrHelp
		}
	}
	if err := fset.Parse(args); err != nil {
		return nil, flagMistake(name, err)
	}
	if fset.NArg() > 0 {
		return nil, commandUsageError(name, "unexpected argument %q", fset.Arg(0))
	}
	o.set = map[string]bool{}
	fset.Visit(func(f *flag.Flag) { o.set[f.Name] = true })
	return o, nil
}

// spec is the part of a command's host.Spec the shared flags say; each
// command adds its own.
func (o *options) spec() host.Spec {
	return host.Spec{Source: o.source, ConfigFile: o.config, Content: o.content, BaseURL: o.baseURL}
}

// listenAddr resolves --addr, $PORT (serve only) and the command's default.
// listen binds the address the command serves on. A port already taken
// says what is likely there and what to do: one line, exit 1.
func listen(o *options) (net.Listener, error) {
	addr := listenAddr(o)
	ln, err := front.Listen(addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("%s is in use; is folio %s already running? use --addr to pick another port", addr, o.command)
	}
	return ln, err
}

// baseWarning is the one line serve, dev and build print at start when
// the base URL every page links to is a loopback address other than the
// one served at addr (nil for a build without --addr, which is served
// nowhere yet): without it a site whose config names the dev server's
// address is served unstyled, every link dead, and nothing says why.
// "" when there is nothing to say.
func baseWarning(o *options, cfg *pipeline.Config, addr net.Addr) string {
	if !host.ServedElsewhere(cfg.BaseURL, addr) {
		return ""
	}
	source := "baseURL in " + host.ConfigFile(o.spec())
	switch {
	case o.baseURL != "":
		source = "--base-url"
	case cfg.HostlessBase != "":
		source = fmt.Sprintf("baseURL %q has no host", cfg.HostlessBase)
	case !cfg.BaseSet:
		source = "no baseURL is set"
	}
	if o.command == "build" {
		return fmt.Sprintf("folio: the export links to %s (%s), a loopback address: it works only when served there; set baseURL in %s to the address it will be served at",
			cfg.BaseURL, source, host.ConfigFile(o.spec()))
	}
	fix := "remove baseURL from " + host.ConfigFile(o.spec()) + ", or pass --base-url " + host.BaseOf(addr)
	if o.baseURL != "" {
		fix = "pass --base-url " + host.BaseOf(addr) + " or none"
	}
	return fmt.Sprintf("folio: pages link to %s (%s), which is not this server; %s", cfg.BaseURL, source, fix)
}

func listenAddr(o *options) string {
	switch {
	case o.addr != "":
		return o.addr
	case o.command == "dev":
		return "127.0.0.1:1313"
	case os.Getenv("PORT") != "":
		return ":" + os.Getenv("PORT")
	}
	return ":8080"
}

func version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "(unknown)"
	}
	v := info.Main.Version
	var rev, modified string
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			if s.Value == "true" {
				modified = "-dirty"
			}
		}
	}
	if rev != "" {
		v += " " + rev[:min(12, len(rev))] + modified
	}
	return strings.TrimSpace(v + " " + info.GoVersion)
}
