package export

import "golang.org/x/sys/unix"

// exchange swaps tmp and out in one step (renameat2 RENAME_EXCHANGE), so a
// web server reading out sees the old site or the new one, never neither.
// It returns where the old output now is. File systems without the call
// fall back to two renames.
func exchange(tmp, out string) (old string, err error) {
	err = unix.Renameat2(unix.AT_FDCWD, tmp, unix.AT_FDCWD, out, unix.RENAME_EXCHANGE)
	switch err {
	case nil:
		return tmp, nil
	case unix.ENOSYS, unix.EINVAL:
		return renameAside(tmp, out)
	}
	return "", err
}
