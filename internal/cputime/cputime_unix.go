//go:build unix

// Package cputime gives the benchmarks the CPU time the process has used:
// on a shared machine, CPU time per operation is the figure that other
// people's load disturbs least.
package cputime

import (
	"syscall"
	"time"
)

// Used is the user and system CPU time of the process so far.
func Used() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
