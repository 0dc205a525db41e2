// Command hugocompare compares the URLs Hugo 0.165 writes for a Hugo site
// with the ones folio publishes for it: the check of issue 13 on a real
// site. Hugo builds a copy of the site with folio's oracle theme (a
// layout for every kind writing each page's title and kind; the site's
// shortcode templates kept, the missing ones of its theme stubbed), and
// folio reads the site as folio dev in its folder would.
//
//	go run ./bench/hugocompare [-diffs N] SITE...
//
// For each site it prints Hugo's URLs the site model publishes, by class,
// and the first N differences (missing, different, extra); then the same
// URLs asked of folio's server as folio serve in the site's folder
// answers them (siteoracle.Answers).
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"folio/host"
	"folio/internal/hugotest"
	"folio/internal/siteoracle"
	"folio/pipeline"
)

func main() {
	diffs := flag.Int("diffs", 30, "differences to print per site")
	flag.Parse()
	bin, err := hugotest.Find()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	failed := false
	for _, site := range flag.Args() {
		if err := compare(bin, site, *diffs); err != nil {
			fmt.Fprintf(os.Stderr, "%s: %v\n", site, err)
			failed = true
		}
	}
	if failed {
		os.Exit(1)
	}
}

func compare(bin, site string, diffs int) error {
	work, err := os.MkdirTemp("", "hugocompare-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	hugo, err := hugotest.BuildWith(bin, site, work, work+"/public")
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
	printDiffs(r.Diffs, diffs)
	abs, err := filepath.Abs(site)
	if err != nil {
		return err
	}
	h, err := host.Load(host.Spec{Source: abs})
	if err != nil {
		return err
	}
	defer h.Close()
	a := siteoracle.Answers(h.Server(), hugo, work+"/public", siteoracle.BasePath(cfg))
	fmt.Printf("  answered over HTTP: %s\n", a.Summary())
	printDiffs(a.Diffs, diffs)
	return nil
}

func printDiffs(ds []string, n int) {
	for i, d := range ds {
		if i == n {
			fmt.Printf("  … %d more\n", len(ds)-n)
			break
		}
		fmt.Println("  " + d)
	}
}
