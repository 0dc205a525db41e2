package export

import (
	"crypto/sha256"
	"io"
	"os"
	"strings"
	"sync"
	"sync/atomic"

	"folio/internal/mapfile"
)

// # Reading ahead
//
// A build over its previous output spends some 0.2 s of CPU at 10,000
// posts before it can write anything: reading the record, and checking
// that the output's 40,000 files and 14,000 folders are as it says (one
// system call each). None of it needs the site, and while the site loads
// one of the machine's two cores is mostly idle: ReadAhead does it then,
// on a goroutine of its own, and Stage takes what it found.
//
// Stage takes it only when the record is still the file that was read
// (its lock on out's folder was not held yet: another build may have
// written out meanwhile, and then the record is another file, or none).
// The file is held open until then, so no other file can take its inode.
// What was found of out's files and folders is as sound as when Stage
// looks itself: a file edited in out after it was looked at is kept by
// this build, as it would be after Stage's own look, and its record then
// holds a size and time the file no longer has, so the next build writes
// it again; a folder found clean keeps its recorded time in the next
// record, which a file added to it since no longer has, so the next build
// lists it.

// An Ahead is out's record read, and its files and folders looked at,
// ahead of Stage (ReadAhead). Stage takes it through Options.Ahead.
type Ahead struct {
	out  string
	read chan struct{} // closed once the record is read
	done chan struct{} // closed once everything is looked at
	stop atomic.Bool   // Stage took it, or Close was called: stop looking

	// Set before read is closed: the record and what it holds (prev is
	// nil for none).
	file   *os.File
	info   os.FileInfo
	format string
	prev   map[string]*manifestRoute
	dirs   folderTimes
	shape  *[sha256.Size]byte
	cache  *fileStamp // the parse cache the record says is whole
	// Set before done is closed: the recorded folders whose time is the
	// one recorded (cleanFolders), unless stopped before.
	clean map[string]bool

	closeOnce sync.Once
}

// ReadAhead starts reading out's record and looking at out's files and
// folders, on a goroutine of its own. Close lets it go. It is for a
// process that ends with its build: the record stays mapped into memory
// (readRecord).
func ReadAhead(out string) *Ahead {
	a := &Ahead{out: out, read: make(chan struct{}), done: make(chan struct{})}
	go a.run()
	return a
}

func (a *Ahead) run() {
	defer close(a.done)
	a.readRecord()
	close(a.read)
	if a.prev == nil {
		return
	}
	// The files of the routes from the last: Stage's writers look at
	// them from the first, and each route is looked at once (intact).
	all := make([]*manifestRoute, len(a.prev))
	for _, r := range a.prev {
		all[r.index] = r
	}
	d := openOut(a.out)
	defer d.close()
	for i := len(all) - 1; i >= 0; i-- {
		if a.stop.Load() {
			return
		}
		all[i].checkIntact(d)
	}
	if !a.stop.Load() {
		a.clean = cleanFolders(a.out, a.dirs)
	}
}

// readRecord reads out's record, of either format, keeping its file
// open. The file is mapped into memory where the system can, not read
// (15 MB at 10,000 posts: the copy and a page fault for each 4 KiB of a
// fresh buffer cost some 10 ms of the core the site's load leaves
// idle), and stays mapped until the process ends: the routes' strings
// point into it. Like the parse cache (pipeline.CacheFile.Map), a
// record is only ever replaced by a rename (writeManifest) or removed,
// never written in place; ReadAhead is for a process that ends with its
// build (folio build).
func (a *Ahead) readRecord() {
	f, err := os.Open(manifestPath(a.out))
	if err != nil {
		return
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() {
		f.Close()
		return
	}
	data, mapped := mapfile.Map(f, info.Size())
	if !mapped {
		data = make([]byte, info.Size())
		if _, err := io.ReadFull(f, data); err != nil {
			f.Close()
			return
		}
	}
	a.file, a.info = f, info
	a.format, _, _ = strings.Cut(string(data[:min(len(data), 64)]), "\n")
	if a.format != manifestFormat && a.format != manifestFormat+" nogzip" {
		return
	}
	a.prev, a.dirs, a.shape, a.cache = decodeRecord(data, a.format)
}

// take is what was read of out's record, of format, when the record is
// still the file that was read; ok is false otherwise (the caller reads
// it afresh). The caller holds the lock on out's folder. Looking at out
// goes on meanwhile (folders waits for it).
func (a *Ahead) take(out, format string) (prev map[string]*manifestRoute, dirs folderTimes, shape *[sha256.Size]byte, ok bool) {
	if a == nil || a.out != out {
		return nil, nil, nil, false
	}
	<-a.read
	if a.prev == nil || a.format != format {
		a.Close()
		return nil, nil, nil, false
	}
	now, err := os.Lstat(manifestPath(out))
	if err != nil || !os.SameFile(now, a.info) || now.Size() != a.info.Size() || !now.ModTime().Equal(a.info.ModTime()) {
		a.Close()
		return nil, nil, nil, false
	}
	return a.prev, a.dirs, a.shape, true
}

// folders is cleanFolders of the record taken, once looked at; nil when
// it was not (Stage looks then).
func (a *Ahead) folders() map[string]bool {
	if a == nil {
		return nil
	}
	<-a.done
	return a.clean
}

// Close stops looking, waits for the goroutine and closes the record's
// file. It may be called more than once, and on nil.
func (a *Ahead) Close() {
	if a == nil {
		return
	}
	a.closeOnce.Do(func() {
		a.stop.Store(true)
		<-a.done
		if a.file != nil {
			a.file.Close()
		}
	})
}

// A fileStamp is what the system says of a file without reading it: its
// device and inode, size, and modification and status-change times
// (Unix ns). Any write to the file, or a file put in its place, changes
// it, and no one can set the status-change time back.
type fileStamp struct {
	dev, ino          uint64
	size, mod, change int64
}

// CacheWhole reports whether the parse cache's file, as info describes
// it, is the one the previous build read and found whole (its CRC-32C)
// and left in place, by its stamp in the record (Staged.KeepCache), so
// that its CRC need not be computed again. It waits for the record to be
// read.
func (a *Ahead) CacheWhole(info os.FileInfo) bool {
	if a == nil || info == nil {
		return false
	}
	<-a.read
	s, ok := stampOf(info)
	return ok && a.cache != nil && s == *a.cache
}
