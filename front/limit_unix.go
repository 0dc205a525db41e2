//go:build unix

package front

import "syscall"

// openFileLimit is the process's soft RLIMIT_NOFILE.
func openFileLimit() (int, bool) {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur > 1<<40 {
		return 0, false
	}
	return int(rl.Cur), true
}
