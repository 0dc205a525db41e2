package export

import (
	"golang.org/x/sys/unix"
)

// An outDir is the output folder, opened once, in which a build over it
// looks its files up by their names in it: the system then walks only
// those names, not out's own path again, for each of the some 40,000
// files it checks (see intactFile). A folder that cannot be opened is
// looked in by path.
type outDir struct {
	path string
	fd   int // -1: by path
}

func openOut(out string) *outDir {
	fd, err := unix.Open(out, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
	if err != nil {
		fd = -1
	}
	return &outDir{path: out, fd: fd}
}

func (d *outDir) close() {
	if d != nil && d.fd >= 0 {
		unix.Close(d.fd)
		d.fd = -1
	}
}

// regular is the size, modification and status-change times (Unix ns)
// of the regular file name (slash-separated) in the folder; ok is false
// for anything else, or nothing.
func (d *outDir) regular(name string) (size, mod, change int64, ok bool) {
	var st unix.Stat_t
	var err error
	if d.fd >= 0 {
		err = statAt(d.fd, name, &st)
	} else {
		err = unix.Lstat(d.path+"/"+name, &st)
	}
	if err != nil || st.Mode&unix.S_IFMT != unix.S_IFREG {
		return 0, 0, 0, false
	}
	return st.Size, st.Mtim.Nano(), st.Ctim.Nano(), true
}

// folderChanged is dirChanged of the folder name (slash-separated, ""
// for the folder itself) in the folder.
func (d *outDir) folderChanged(name string) (ns int64, ok bool) {
	if d.fd < 0 {
		return dirChanged(d.path + "/" + name)
	}
	if name == "" {
		name = "."
	}
	var st unix.Stat_t
	if err := statAt(d.fd, name, &st); err != nil || st.Mode&unix.S_IFMT != unix.S_IFDIR {
		return 0, false
	}
	return st.Ctim.Nano(), true
}
