package host

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"io/fs"
	"math"
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
	var l listing
	ok := false
	raw.Control(func(dirfd uintptr) {
		ok = l.list(int(dirfd), name)
	})
	if !ok {
		return fs.ReadDir(c.FS, name)
	}
	return l.entries(&listedDir{c, name}), nil
}

// A listing is a folder's entries as getdents64 gave them: their names
// one after another in one buffer, and where each is. The walk lists a
// folder of 100,000 posts whole before it queues the first for the parse
// (in order: the posts parsed in the order of their names lie in memory
// in that order, which the site model walks them in), so its listing is
// lean: a few allocations, not two an entry, and a sort of small records
// (entries). ReadDirTypes of that folder: 88-91 ms of CPU before, 48-51
// ms after, of which getdents64 is 30 (best of 15, load 4-7).
type listing struct {
	names []byte
	recs  []listedName
}

// A listedName is an entry of a listing: its name, names[off:off+n],
// and its type.
type listedName struct {
	off uint32
	n   uint32
	typ fs.FileMode
}

// list lists the folder name beneath dirfd; false when it could not.
func (l *listing) list(dirfd int, name string) bool {
	fd, ok := openBeneath(dirfd, name, unix.O_DIRECTORY)
	if !ok {
		return false
	}
	defer unix.Close(fd)
	var st unix.Stat_t
	if unix.Fstat(fd, &st) == nil && st.Size > 0 {
		// A folder's size is about the bytes of its entries (ext4, xfs,
		// btrfs: tens of bytes an entry); tmpfs says nothing useful.
		l.names = make([]byte, 0, min(st.Size, 64<<20))
	}
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Getdents(fd, buf)
		if err == unix.EINTR {
			continue
		}
		if err != nil {
			return false
		}
		if n <= 0 {
			return true
		}
		for rec := buf[:n]; len(rec) >= direntName; {
			reclen := int(binary.NativeEndian.Uint16(rec[direntReclen:]))
			if reclen < direntName || reclen > len(rec) {
				return false
			}
			entry := rec[direntName:reclen]
			if i := bytes.IndexByte(entry, 0); i >= 0 {
				entry = entry[:i]
			}
			typ, known := direntType(rec[direntTypeAt])
			rec = rec[reclen:]
			if string(entry) == "." || string(entry) == ".." {
				continue
			}
			if !known { // the file system does not say: a stat of it, not followed
				var st unix.Stat_t
				if err := unix.Fstatat(fd, string(entry), &st, unix.AT_SYMLINK_NOFOLLOW); err != nil {
					continue // gone since
				}
				typ = statType(st.Mode)
			}
			if uint64(len(l.names)+len(entry)) > math.MaxUint32 {
				return false
			}
			l.recs = append(l.recs, listedName{off: uint32(len(l.names)), n: uint32(len(entry)), typ: typ})
			l.names = append(l.names, entry...)
		}
	}
}

// entries are the listing's entries, sorted by name, in dir. Their
// names share one string, which a name kept keeps whole (the folder's
// names, a few megabytes at 100,000 entries): the walk keeps none of
// them, only paths made from them.
//
// The sort compares first each name's first sixteen bytes, kept beside
// it as two numbers, so that it does not look up the names themselves
// (spread over megabytes) but to tell apart names longer than that which
// begin alike. Names hold no zero byte, so a shorter name padded with
// zeros sorts before the longer ones it begins, as it should.
func (l *listing) entries(dir *listedDir) []fs.DirEntry {
	names := string(l.names)
	name := func(r listedName) string { return names[r.off : r.off+r.n] }
	keyed := make([]keyedName, len(l.recs))
	for i, r := range l.recs {
		var b [16]byte
		copy(b[:], name(r))
		keyed[i] = keyedName{binary.BigEndian.Uint64(b[:8]), binary.BigEndian.Uint64(b[8:]), r}
	}
	slices.SortFunc(keyed, func(a, b keyedName) int {
		if c := cmp.Compare(a.head, b.head); c != 0 {
			return c
		}
		if c := cmp.Compare(a.next, b.next); c != 0 || a.n <= 16 && b.n <= 16 {
			return c
		}
		return strings.Compare(name(a.listedName), name(b.listedName))
	})
	entries := make([]typedEntry, len(keyed))
	out := make([]fs.DirEntry, len(keyed))
	for i, k := range keyed {
		entries[i] = typedEntry{at: dir, name: name(k.listedName), typ: k.typ}
		out[i] = &entries[i]
	}
	return out
}

// A keyedName is a listed name with its first sixteen bytes as numbers.
type keyedName struct {
	head, next uint64
	listedName
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
	at   *listedDir
	name string
	typ  fs.FileMode
}

// listedDir is the folder a typedEntry is in.
type listedDir struct {
	fsys contentFS
	dir  string
}

func (e *typedEntry) Name() string               { return e.name }
func (e *typedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *typedEntry) Type() fs.FileMode          { return e.typ }
func (e *typedEntry) String() string             { return fs.FormatDirEntry(e) }
func (e *typedEntry) Info() (fs.FileInfo, error) { return e.at.fsys.Lstat(path.Join(e.at.dir, e.name)) }
