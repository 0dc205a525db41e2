package host

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"path"
	"slices"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// noOpenat2 is set once openat2 is found missing (Linux before 5.6) or
// forbidden (a seccomp filter): every read then goes the usual way.
var noOpenat2 atomic.Bool

// ReadSmallFile opens name with openat2 beneath the root folder
// (RESOLVE_BENEATH: the kernel refuses a path or link that leads out of
// it, as the os.Root does), stats it, and reads it whole in one read
// when it is a regular file of at most max bytes. Anything else (an
// error, a link the kernel will not resolve beneath, a larger or special
// file) is ok false, and the pipeline reads through the os.Root, which
// says why. O_NONBLOCK keeps the open of a FIFO from waiting.
func (c contentFS) ReadSmallFile(name string, max int64) (data []byte, info fs.FileInfo, ok bool) {
	if c.dir == nil || noOpenat2.Load() || !fs.ValidPath(name) {
		return nil, nil, false
	}
	raw, err := c.dir.SyscallConn()
	if err != nil {
		return nil, nil, false
	}
	raw.Control(func(dirfd uintptr) {
		data, info, ok = readBeneath(int(dirfd), name, max)
	})
	return data, info, ok
}

// statInfo is the stat of a regular file read (ReadSmallFile): its Sys
// is the *syscall.Stat_t the pipeline takes a file's stamp from.
type statInfo struct {
	name string
	st   syscall.Stat_t
}

func (i *statInfo) Name() string       { return path.Base(i.name) }
func (i *statInfo) Size() int64        { return i.st.Size }
func (i *statInfo) Mode() fs.FileMode  { return fs.FileMode(i.st.Mode & 0o777) } // a regular file's
func (i *statInfo) ModTime() time.Time { return time.Unix(i.st.Mtim.Unix()) }
func (i *statInfo) IsDir() bool        { return false }
func (i *statInfo) Sys() any           { return &i.st }

// openBeneath opens name read-only beneath dirfd (no link out of it, no
// magic link), with flags added; a kernel without openat2, or a sandbox
// refusing it, turns it off for good (noOpenat2).
func openBeneath(dirfd int, name string, flags uint64) (int, bool) {
	how := unix.OpenHow{
		Flags:   unix.O_RDONLY | unix.O_CLOEXEC | unix.O_NOCTTY | flags,
		Resolve: unix.RESOLVE_BENEATH | unix.RESOLVE_NO_MAGICLINKS,
	}
	for {
		fd, err := unix.Openat2(dirfd, name, &how)
		switch {
		case err == unix.EINTR:
			continue
		case err != nil:
			if errors.Is(err, unix.ENOSYS) || errors.Is(err, unix.EPERM) {
				noOpenat2.Store(true)
			}
			return -1, false
		}
		return fd, true
	}
}

func readBeneath(dirfd int, name string, max int64) ([]byte, fs.FileInfo, bool) {
	fd, ok := openBeneath(dirfd, name, unix.O_NONBLOCK)
	if !ok {
		return nil, nil, false
	}
	defer unix.Close(fd)
	info := &statInfo{name: name}
	st := &info.st
	if err := syscall.Fstat(fd, st); err != nil || st.Mode&syscall.S_IFMT != syscall.S_IFREG || st.Size > max {
		return nil, nil, false
	}
	// Read to the size the stat gave: a regular file's read returns less
	// only at its end, which a zero-length read would only confirm.
	buf := make([]byte, st.Size)
	n := 0
	for n < len(buf) {
		m, err := unix.Read(fd, buf[n:])
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, nil, false
		}
		if m == 0 {
			break // shortened since the stat
		}
		n += m
	}
	return buf[:n], info, true
}

// ReadDirTypes lists the folder name with each entry's name and type as
// the kernel's directory listing gives them (getdents64), without a stat
// of each (pipeline.DirTypesFS): the folder is opened with openat2
// beneath the root folder, as ReadSmallFile opens files. An entry's Info
// stats it through the os.Root. Whatever this cannot list (an error, a
// link the kernel will not resolve beneath, no openat2) is listed by the
// os.Root, which says why.
func (c contentFS) ReadDirTypes(name string) ([]fs.DirEntry, error) {
	if c.dir == nil || noOpenat2.Load() || !fs.ValidPath(name) {
		return fs.ReadDir(c.FS, name)
	}
	raw, err := c.dir.SyscallConn()
	if err != nil {
		return fs.ReadDir(c.FS, name)
	}
	var entries []typedEntry
	ok := false
	raw.Control(func(dirfd uintptr) {
		entries, ok = listBeneath(int(dirfd), name)
	})
	if !ok {
		return fs.ReadDir(c.FS, name)
	}
	slices.SortFunc(entries, func(a, b typedEntry) int { return strings.Compare(a.name, b.name) })
	out := make([]fs.DirEntry, len(entries))
	for i := range entries {
		entries[i].fsys, entries[i].dir = c, name
		out[i] = &entries[i]
	}
	return out, nil
}

// listBeneath lists the folder name beneath dirfd.
func listBeneath(dirfd int, name string) ([]typedEntry, bool) {
	fd, ok := openBeneath(dirfd, name, unix.O_DIRECTORY)
	if !ok {
		return nil, false
	}
	defer unix.Close(fd)
	var out []typedEntry
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return nil, false
		}
		if n <= 0 {
			return out, true
		}
		for rec := buf[:n]; len(rec) >= direntName; {
			reclen := int(binary.NativeEndian.Uint16(rec[direntReclen:]))
			if reclen < direntName || reclen > len(rec) {
				return nil, false
			}
			nameBytes := rec[direntName:reclen]
			if i := bytes.IndexByte(nameBytes, 0); i >= 0 {
				nameBytes = nameBytes[:i]
			}
			typ, known := direntType(rec[direntTypeAt])
			rec = rec[reclen:]
			entry := string(nameBytes)
			if entry == "." || entry == ".." {
				continue
			}
			if !known { // the file system does not say: a stat of it, not followed
				var st unix.Stat_t
				if err := unix.Fstatat(fd, entry, &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone since
				}
				typ = statType(st.Mode)
			}
			out = append(out, typedEntry{name: entry, typ: typ})
		}
	}
}

// Where the fields of a linux_dirent64 are: ino (8 bytes), off (8),
// reclen (2), type (1), then the name, ended by a zero byte.
const (
	direntReclen = 16
	direntTypeAt = 18
	direntName   = 19
)

// direntType is the file type a directory entry names; known is false
// for DT_UNKNOWN.
func direntType(t byte) (typ fs.FileMode, known bool) {
	switch t {
	case unix.DT_REG:
		return 0, true
	case unix.DT_DIR:
		return fs.ModeDir, true
	case unix.DT_LNK:
		return fs.ModeSymlink, true
	case unix.DT_FIFO:
		return fs.ModeNamedPipe, true
	case unix.DT_SOCK:
		return fs.ModeSocket, true
	case unix.DT_CHR:
		return fs.ModeDevice | fs.ModeCharDevice, true
	case unix.DT_BLK:
		return fs.ModeDevice, true
	}
	return 0, false
}

// statType is the file type of a stat's mode.
func statType(mode uint32) fs.FileMode {
	switch mode & unix.S_IFMT {
	case unix.S_IFDIR:
		return fs.ModeDir
	case unix.S_IFLNK:
		return fs.ModeSymlink
	case unix.S_IFIFO:
		return fs.ModeNamedPipe
	case unix.S_IFSOCK:
		return fs.ModeSocket
	case unix.S_IFCHR:
		return fs.ModeDevice | fs.ModeCharDevice
	case unix.S_IFBLK:
		return fs.ModeDevice
	}
	return 0
}

// A typedEntry is an entry of ReadDirTypes: its name and type; Info
// stats it through the os.Root.
type typedEntry struct {
	fsys contentFS
	dir  string
	name string
	typ  fs.FileMode
}

func (e *typedEntry) Name() string               { return e.name }
func (e *typedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *typedEntry) Type() fs.FileMode          { return e.typ }
func (e *typedEntry) String() string             { return fs.FormatDirEntry(e) }
func (e *typedEntry) Info() (fs.FileInfo, error) { return e.fsys.Lstat(path.Join(e.dir, e.name)) }
