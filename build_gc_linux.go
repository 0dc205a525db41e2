package main

import (
	"os"
	"path"
	"strconv"
	"strings"

	"golang.org/x/sys/unix"
)

// memoryBudget is the memory this process may use, in bytes: the
// machine's, or its control group's limit (cgroup v2 memory.max) when
// that is less; 0 when neither is known.
func memoryBudget() int64 {
	var budget int64
	var info unix.Sysinfo_t
	if unix.Sysinfo(&info) == nil {
		budget = int64(info.Totalram) * int64(info.Unit)
	}
	if n := cgroupLimit(); n > 0 && (budget == 0 || n < budget) {
		budget = n
	}
	return budget
}

// cgroupLimit is the memory limit of the process's control group: its
// cgroup v2 memory.max ("0::/path" in /proc/self/cgroup) or its cgroup
// v1 memory.limit_in_bytes ("N:memory:/path"); 0 when it has none.
func cgroupLimit() int64 {
	b, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return 0
	}
	for line := range strings.Lines(string(b)) {
		line = strings.TrimSpace(line)
		var file string
		if group, ok := strings.CutPrefix(line, "0::"); ok {
			file = path.Join("/sys/fs/cgroup", group, "memory.max")
		} else if _, group, ok := strings.Cut(line, ":memory:"); ok {
			file = path.Join("/sys/fs/cgroup/memory", group, "memory.limit_in_bytes")
		} else {
			continue
		}
		m, err := os.ReadFile(file)
		if err != nil {
			continue
		}
		// "max", or v1's "no limit" (the largest multiple of the page
		// size), is no limit.
		if n, err := strconv.ParseInt(strings.TrimSpace(string(m)), 10, 64); err == nil && n > 0 && n < 1<<62 {
			return n
		}
	}
	return 0
}
