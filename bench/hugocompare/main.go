// Command hugocompare compares the URLs Hugo 0.165 writes for a Hugo site
// with the ones folio publishes for it: the check of issue 13 on a real
// site. Hugo builds a copy of the site with folio's oracle theme (a
// layout for every kind writing each page's title and kind; the site's
// shortcode templates kept, the missing ones of its theme stubbed), and
// folio reads the site as folio serve in its folder would.
//
//	go run ./bench/hugocompare [-diffs N] [-folio BIN [-cmd serve,dev,build]] SITE...
//
// For each site it prints Hugo's URLs the site model publishes, by class,
// and the first N differences (missing, different, extra); then the same
// URLs asked of folio's server as folio serve in the site's folder
// answers them (siteoracle.Answers). With -folio, the folio binary BIN is
// also started in the site's folder, as a new user starts it there (folio
// serve, folio dev: no flag but a free loopback port), and every URL is
// asked of it over HTTP; for dev, Hugo builds the development
// environment, the one folio dev reads (as hugo server does). For build,
// folio build writes the export and its nginx config, and Hugo's URLs
// are looked up in the export's files (as a static host serves them) and
// asked of nginx serving the export with that config (export.go).
package main

import (
	"flag"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"folio/host"
	"folio/internal/hugotest"
	"folio/internal/siteoracle"
	"folio/pipeline"
)

func main() {
	diffs := flag.Int("diffs", 30, "differences to print per site")
	folio := flag.String("folio", "", "a folio binary to start in each site's folder and ask over HTTP")
	cmds := flag.String("cmd", "serve,dev,build", "with -folio, the commands to run: serve, dev, build")
	flag.Parse()
	bin, err := hugotest.Find()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	c := comparer{hugo: bin, diffs: *diffs}
	if *folio != "" {
		if c.folio, err = filepath.Abs(*folio); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		for _, cmd := range strings.Split(*cmds, ",") {
			if cmd != "serve" && cmd != "dev" && cmd != "build" {
				fmt.Fprintf(os.Stderr, "-cmd: %q is not serve, dev or build\n", cmd)
				os.Exit(2)
			}
			c.commands = append(c.commands, cmd)
		}
	}
	failed := false
	for _, site := range flag.Args() {
		if err := c.compare(site); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", site, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

// A comparer compares sites with Hugo at hugo, and the folio binary at
// folio (when set) running commands.
type comparer struct {
	hugo, folio string
	commands    []string
	diffs       int
}

func (c comparer) compare(site string) error {
	abs, err := filepath.Abs(site)
	if err != nil {
		return err
	}
	work, err := os.MkdirTemp("", "hugocompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	hugo, err := hugotest.BuildWith(c.hugo, abs, filepath.Join(work, "production"), filepath.Join(work, "production", "public"))
	if err != nil {
		return err
	}
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: site, Environment: "production"})
	if err != nil {
		return err
	}
	snap, err := pipeline.Build(os.DirFS(cfg.Root()), cfg, pipeline.Options{Root: site}, time.Now())
	if err != nil {
		return err
	}
	r := hugotest.Compare(hugo, siteoracle.Outputs(snap), siteoracle.BasePath(cfg))
	fmt.Printf("%s: %s; %d posts, %d problems, %d config warnings\n", site, r.Summary(), len(snap.Posts()), len(snap.Problems()), len(cfg.Warnings))
	for _, w := range cfg.Warnings {
		fmt.Println("  config: " + w.String())
	}
	c.print(r.Diffs)
	h, err := host.Load(host.Spec{Source: abs})
	if err != nil {
		return err
	}
	defer h.Close()
	a := siteoracle.Answers(h.Server(), hugo, filepath.Join(work, "production", "public"), siteoracle.BasePath(cfg))
	fmt.Printf("  answered over HTTP: %s\n", a.Summary())
	c.print(a.Diffs)
	for _, cmd := range c.commands {
		if cmd == "build" {
			err = c.build(abs, hugo, filepath.Join(work, "production", "public"), filepath.Join(work, "build"), siteoracle.BasePath(cfg))
		} else {
			err = c.process(abs, cmd, hugo, work, siteoracle.BasePath(cfg))
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// process starts folio's cmd in the site's folder and asks it for every
// URL Hugo writes for the command's environment.
func (c comparer) process(site, cmd string, production map[string]hugotest.Output, work, base string) error {
	hugo, out := production, filepath.Join(work, "production", "public")
	if cmd == "dev" {
		dir := filepath.Join(work, "development")
		out = filepath.Join(dir, "public")
		var err error
		if hugo, err = hugotest.BuildEnv(c.hugo, site, dir, out, "development"); err != nil {
			return err
		}
	}
	p, err := start(c.folio, cmd, site)
	if err != nil {
		return err
	}
	defer p.stop()
	a := siteoracle.Answers(http.Handler(p), hugo, out, base)
	fmt.Printf("  folio %s in the site's folder (%s): %s\n", cmd, p.base, a.Summary())
	c.print(a.Diffs)
	return nil
}

func (c comparer) print(ds []string) {
	for i, d := range ds {
		if i == c.diffs {
			fmt.Printf("  … %d more\n", len(ds)-c.diffs)
			break
		}
		fmt.Println("  " + d)
	}
}
