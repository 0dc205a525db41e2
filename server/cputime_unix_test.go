//go:build unix

package server

import (
	"syscall"
	"time"
)

// cpuTime is the user and system CPU time of the process so far: on a
// shared machine, CPU time per operation is the figure other people's
// load disturbs least.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
