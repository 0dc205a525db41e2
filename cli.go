package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"os"
	"runtime/debug"
	"strings"

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
  --config FILE     config file (default ./config.toml if present)
  --content DIR     content folder (overrides the config)
  --addr HOST:PORT  listen address (serve :8080 or :$PORT, dev 127.0.0.1:1313);
                    for build, the address the export will be served on
  --base-url URL    absolute base URL (overrides the config)

Run "folio <command> --help" for a command's own flags; "folio --version"
prints the version.
`

// options are the parsed command line of one command.
type options struct {
	command string
	config  string
	content string
	addr    string
	baseURL string
	drafts  bool   // dev
	verbose bool   // check
	watch   bool   // serve
	out     string // build
	nginx   string // build
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
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 2
	}
	if code, ok := preflight(opts, stderr); !ok {
		return code
	}
	log := slog.New(slog.NewTextHandler(stderr, nil))
	switch opts.command {
	case "check":
		return runCheck(opts, stdout, stderr)
	case "serve":
		return runServe(ctx, opts, stderr, log)
	case "dev":
		return runDev(ctx, opts, stderr, log)
	case "build":
		return runBuild(opts, stderr)
	}
	return 2
}

var commandHelp = map[string]string{
	"serve": "folio serve [flags]: the production host. No watcher unless --watch; SIGHUP reloads\ncontent and config; SIGTERM and SIGINT drain in-flight requests and exit 0.",
	"dev":   "folio dev [flags]: the author's server. Watches content, site and config, live-reloads\nbrowsers and shows build errors in the page. Binds 127.0.0.1:1313 by default.",
	"build": "folio build [flags]: writes every route the server answers as static files, with\n.gz twins, into --out (default public/). With problems it exits 1 and leaves the\nprevious output in place.",
	"check": "folio check [flags]: parses everything, prints every problem as path:line: message\nand a summary; exits 1 when there is any problem.",
}

// addrUsage is what --addr means to each command.
var addrUsage = map[string]string{
	"serve": "listen address (default :8080, or :$PORT when PORT is set)",
	"dev":   "listen address (default 127.0.0.1:1313)",
	"build": "the address the export will be served on: with --nginx, nginx's listen address\n(default 80); without a baseURL in the config or --base-url, the base URL's\nhost and port (default localhost:8080)",
	"check": "not used by check (accepted, as by every command)",
}

// parseFlags parses one command's flags. --help prints the command's help
// to stdout and returns flag.ErrHelp; a mistake is a *usageError.
func parseFlags(command string, args []string, stdout io.Writer) (*options, error) {
	help, ok := commandHelp[command]
	if !ok {
		return nil, topLevelMistake(command)
	}
	o := &options{command: command}
	fset := flag.NewFlagSet("folio "+command, flag.ContinueOnError)
	// Parse would print the whole help after a mistake; the mistake is
	// reported on one line instead (flagMistake).
	fset.SetOutput(io.Discard)
	fset.Usage = func() {}
	fset.StringVar(&o.config, "config", "", "config file (default ./config.toml if present, else built-in defaults)")
	fset.StringVar(&o.content, "content", "", "content folder (overrides contentDir)")
	fset.StringVar(&o.addr, "addr", "", addrUsage[command])
	fset.StringVar(&o.baseURL, "base-url", "", "absolute base URL every emitted URL starts with")
	switch command {
	case "dev":
		fset.BoolVar(&o.drafts, "drafts", false, "also show drafts, future and expired posts")
	case "check":
		fset.BoolVar(&o.verbose, "v", false, "also list on stderr each published post, then each one left out and why")
	case "serve":
		fset.BoolVar(&o.watch, "watch", false, "watch the content folder and reload on change")
	case "build":
		fset.StringVar(&o.out, "out", "public", "output folder")
		fset.StringVar(&o.nginx, "nginx", "", "also write an nginx config there (outside the output folder)")
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-h" || a == "-help" || a == "--help" {
			fmt.Fprintf(stdout, "%s\n\nFlags:\n", help)
			printFlags(stdout, fset)
			return nil, flag.ErrHelp
		}
	}
	if err := fset.Parse(args); err != nil {
		return nil, flagMistake(command, err)
	}
	if fset.NArg() > 0 {
		return nil, commandUsageError(command, "unexpected argument %q", fset.Arg(0))
	}
	return o, nil
}

// loadConfig reads the config file (or the defaults) and applies flags.
func loadConfig(o *options) (*pipeline.Config, error) {
	var cfg *pipeline.Config
	switch {
	case o.config != "":
		c, err := pipeline.LoadConfig(o.config)
		var pe *fs.PathError
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return nil, fmt.Errorf("--config %s: no such file (without --config, ./config.toml is read when present)", o.config)
		case errors.As(err, &pe):
			return nil, fmt.Errorf("--config %s: %w", o.config, pe.Err)
		}
		if err != nil {
			return nil, err
		}
		cfg = c
	default:
		c, err := pipeline.LoadConfig("config.toml")
		switch {
		case err == nil:
			cfg = c
		case errors.Is(err, fs.ErrNotExist):
			cfg = pipeline.DefaultConfig()
		default:
			return nil, err
		}
	}
	if o.content != "" {
		cfg.ContentDir = o.content
	}
	if o.baseURL != "" {
		cfg.BaseURL, cfg.BaseSet = o.baseURL, true
		if err := cfg.Validate(); err != nil {
			return nil, fmt.Errorf("--base-url: %w", err)
		}
	}
	return cfg, nil
}

// listenAddr resolves --addr, $PORT (serve only) and the command's default.
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

// baseFromAddr is the base URL for a bound address: an empty or 0.0.0.0
// host is written as localhost.
func baseFromAddr(addr net.Addr) string {
	host, port, err := net.SplitHostPort(addr.String())
	if err != nil {
		return "http://localhost/"
	}
	if host == "" || host == "0.0.0.0" || host == "::" {
		host = "localhost"
	}
	return "http://" + net.JoinHostPort(host, port) + "/"
}

// openContent opens the content folder as an fs.FS that cannot be escaped by
// symlinks.
func openContent(dir string) (fs.FS, error) {
	if err := statFolder("content folder", dir); err != nil {
		return nil, err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, folderError("content folder", dir, err)
	}
	return root.FS(), nil
}

// statFolder checks that dir is a folder; what names it in the error.
func statFolder(what, dir string) error {
	info, err := os.Stat(dir)
	if err != nil {
		return folderError(what, dir, err)
	}
	if !info.IsDir() {
		return fmt.Errorf("%s %s: not a directory", what, dir)
	}
	return nil
}

// folderError says what is wrong with a folder without repeating its
// name ("content folder x: no such file or directory", not "…: stat x:
// no such file or directory").
func folderError(what, dir string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("%s %s: %w", what, dir, err)
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
