//go:build unix

package export

import "golang.org/x/sys/unix"

// dirChanged is the status-change time (ctime, Unix ns) of the folder
// name: a file added to it, removed or renamed in or out sets it, and no
// one can set it back (touch sets the modification time, and this to
// now). ok is false when name is not a folder.
func dirChanged(name string) (ns int64, ok bool) {
	ns, _, ok = dirStamp(name)
	return ns, ok
}

// dirStamp is dirChanged, and the device of the folder's file system.
func dirStamp(name string) (ns int64, dev uint64, ok bool) {
	var st unix.Stat_t
	if err := unix.Lstat(name, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return 0, 0, false
	}
	return st.Ctim.Nano(), uint64(st.Dev), true
}

// regularFile is the size, modification and status-change times (Unix
// ns) of the regular file name; ok is false for anything else, or
// nothing.
func regularFile(name string) (size, mod, change int64, ok bool) {
	var st unix.Stat_t
	if err := unix.Lstat(name, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, 0, false
	}
	return st.Size, st.Mtim.Nano(), st.Ctim.Nano(), true
}
