package main

import (
	"fmt"
	"io"
	"time"

	"folio/pipeline"
)

// runCheck parses everything and prints each problem as path:line: message,
// then "N posts, M problems". Exit 1 when there is any problem.
func runCheck(o *options, stdout, stderr io.Writer) int {
	snap, err := loadSnapshot(o, false)
	if err != nil {
		fmt.Fprintf(stderr, "folio: %v\n", err)
		return 2
	}
	for _, p := range snap.Problems {
		fmt.Fprintln(stdout, p)
	}
	fmt.Fprintf(stdout, "%d posts, %d problems\n", len(snap.Posts), len(snap.Problems))
	if len(snap.Problems) > 0 {
		return 1
	}
	return 0
}

// loadSnapshot reads config and content and builds the first snapshot.
func loadSnapshot(o *options, drafts bool) (*pipeline.Snapshot, error) {
	cfg, err := loadConfig(o)
	if err != nil {
		return nil, err
	}
	fsys, err := openContent(cfg.ContentDir)
	if err != nil {
		return nil, err
	}
	return pipeline.Build(fsys, cfg, pipeline.Options{Root: cfg.ContentDir, Drafts: drafts}, time.Now())
}
