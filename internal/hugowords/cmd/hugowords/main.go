// Command hugowords compares folio's rendering of Hugo sites with Hugo
// 0.165's (package hugowords): go run ./internal/hugowords/cmd/hugowords
// [-v] SITE… (Hugo from $HUGO, PATH or ~/bin/hugo). It exits 1 when a
// page lacks words, missing-theme shortcodes aside.
package main

import (
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"folio/internal/hugowords"
)

func main() {
	verbose := flag.Bool("v", false, "list every page and folio's problems")
	keep := flag.Bool("keep", false, "keep the work folders (the site as Hugo built it, its output, and compare/{hugo,folio}/FILE.html: each page's content as each renders it)")
	flag.Parse()
	hugo := os.Getenv("HUGO")
	if hugo == "" {
		if p, err := exec.LookPath("hugo"); err == nil {
			hugo = p
		} else {
			home, _ := os.UserHomeDir()
			hugo = filepath.Join(home, "bin", "hugo")
		}
	}
	status := 0
	for _, site := range flag.Args() {
		work, err := os.MkdirTemp("", "hugowords-")
		if err != nil {
			fmt.Fprintln(os.Stderr, "hugowords:", err)
			os.Exit(2)
		}
		rep, err := hugowords.Compare(site, hugo, work)
		if *keep {
			fmt.Fprintln(os.Stderr, "hugowords: kept", work)
		} else {
			os.RemoveAll(work)
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "hugowords: %s: %v\n", site, err)
			status = 2
			continue
		}
		fmt.Print(rep.Summary(*verbose))
		for _, p := range rep.Pages {
			if len(p.Missing) > 0 && !p.Stubbed && status == 0 {
				status = 1
			}
		}
	}
	os.Exit(status)
}
