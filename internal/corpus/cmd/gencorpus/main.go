// Command gencorpus writes a synthetic blog of N posts under OUT/content/blog/
// for benchmarks: go run ./internal/corpus/cmd/gencorpus OUT N [SEED].
package main

import (
	"fmt"
	"os"
	"strconv"

	"folio/internal/corpus"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "gencorpus:", err)
		os.Exit(2)
	}
}

func run(args []string) error {
	if len(args) < 2 || len(args) > 3 {
		return fmt.Errorf("usage: gencorpus OUT N [SEED]")
	}
	n, err := strconv.Atoi(args[1])
	if err != nil || n < 0 {
		return fmt.Errorf("N must be a post count, got %q", args[1])
	}
	seed := int64(1)
	if len(args) == 3 {
		if seed, err = strconv.ParseInt(args[2], 10, 64); err != nil {
			return fmt.Errorf("SEED must be an integer, got %q", args[2])
		}
	}
	return corpus.Write(args[0], n, seed)
}
