//go:build !unix

package cputime

import "time"

// Used is not measured here; the benchmarks then report 0 CPU per op.
func Used() time.Duration { return 0 }
