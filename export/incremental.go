package export

import (
	"cmp"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"
)

// # A build over its previous output
//
// When out holds an export with its manifest (manifest.go), Stage writes
// only what changed, and Commit updates out in place:
//
//   - a path whose fingerprint (Options.Fingerprint) is the one recorded
//     is not asked for: its files and record stand as they were;
//   - any other path is asked for as in a cold build, but an answer whose
//     status, ETag and length are the recorded file's, and whose body then
//     hashes as before, is not written: the file stands, with its
//     modification time (so Last-Modified stays what clients saw, as
//     serve keeps it for bytes that did not change);
//   - what is written goes to a staging folder beside out first; the
//     problems are checked with every answer made, and only then does
//     Commit move the new files into out, each in one rename, and remove
//     every file of out that the export no longer has (and folders left
//     empty).
//
// So out ends holding the same bytes, file for file, as a cold build
// (TestIncrementalEqualsCold). A file of out that does not have the size,
// modification and status-change times its record says (edited,
// replaced, even by a copy of its size with its time kept, removed) is
// written again.
// The manifest is removed before out is touched and written after, so an
// update that dies half way leaves out without one, and the next build
// is cold. Unlike a cold build's single swap, readers of out during the
// commit see each file old or new, not the whole site at once.

// errChanged is a kept answer whose body did not hash as its file's:
// the answer is asked again and written (the ETag of a streamed file
// says its size and time, not its bytes).
var errChanged = errors.New("export: the body differs from the file's")

// A prevFile is a file of the previous export as its manifest says.
type prevFile struct {
	status            int
	etag, length      string
	sum               [sha256.Size]byte
	size, mod, change int64
	name              string // in out, slash-separated
}

// prevPlain and prevGzip are the route's plain and gzip files in the
// previous export; nil when it had none.
func (r *manifestRoute) prevPlain() *prevFile {
	r.headers()
	return &prevFile{status: r.Status, etag: r.Header.Get("Etag"), length: r.Header.Get("Content-Length"),
		sum: r.Sum, size: int64(r.File.Size), mod: r.Mod, change: r.Change, name: r.Name}
}

func (r *manifestRoute) prevGzip() *prevFile {
	if !r.Gzip {
		return nil
	}
	return &prevFile{status: r.Status, etag: r.GzipETag, length: strconv.FormatInt(r.GzipSize, 10),
		sum: r.GzipSum, size: r.GzipSize, mod: r.GzipMod, change: r.GzipChange, name: r.Name + ".gz"}
}

// matches reports whether an answer's status and headers are the file's
// (nil matches nothing).
func (p *prevFile) matches(code int, h http.Header) bool {
	return p != nil && p.etag != "" && code == p.status && h.Get("Etag") == p.etag && h.Get("Content-Length") == p.length
}

// recorded says what the previous build recorded of the path urlPath:
// its fingerprint and its plain body's length (Options.Fingerprint).
func (w *writer) recorded(urlPath string) (fp [sha256.Size]byte, size int, ok bool) {
	r := w.prev[urlPath]
	if r == nil || !r.HasFingerprint {
		return fp, 0, false
	}
	return r.Fingerprint, r.File.Size, true
}

// intactFile reports whether the file name (slash-separated, in out)
// is in out as the manifest says (intactIn).
func (w *writer) intactFile(name string, size, mod, change int64) bool {
	return w.outDir != nil && intactIn(w.outDir, name, size, mod, change)
}

// intact reports whether every file of the route r is in out as
// recorded: as found by ReadAhead, or looked at now.
func (w *writer) intact(r *manifestRoute) bool {
	if w.outDir == nil {
		return false
	}
	return r.checkIntact(w.outDir)
}

// The values of manifestRoute.looked.
const (
	notLooked = iota
	foundIntact
	foundChanged
)

// checkIntact reports whether every file of r is in the folder d as
// recorded, looking once: by whichever goroutine comes first (ReadAhead's,
// or a writer's), both at worst.
func (r *manifestRoute) checkIntact(d *outDir) bool {
	switch atomic.LoadInt32(&r.looked) {
	case foundIntact:
		return true
	case foundChanged:
		return false
	}
	ok := intactIn(d, r.Name, r.Size, r.Mod, r.Change) && (!r.Gzip || intactIn(d, r.Name+".gz", r.GzipSize, r.GzipMod, r.GzipChange))
	if ok {
		atomic.StoreInt32(&r.looked, foundIntact)
	} else {
		atomic.StoreInt32(&r.looked, foundChanged)
	}
	return ok
}

// intactIn reports whether the file name (slash-separated) is in the
// folder d as recorded: a regular file of that size, modification time
// and status-change time. The size and modification time alone would
// take a file replaced by another of its size with its time kept (cp
// -p of another export's file) for the one written; its status-change
// time was set by the replacement, and no one can set it back. (A
// replacement within the same tick of the file system's timestamps as
// the time recorded, read after the build's last change to the file,
// keeps it: the kernel's coarse clock, a few milliseconds, on ext4,
// xfs, btrfs or tmpfs; a second where the file system keeps whole
// seconds, as ext3 does. Only right after a build.) Where the system
// has no such time it is 0, recorded and found alike.
func intactIn(d *outDir, name string, size, mod, change int64) bool {
	n, m, c, ok := d.regular(name)
	return ok && n == size && m == mod && c == change
}

// reuse makes f the route r as recorded.
func (f *File) reuse(r *manifestRoute) {
	fp, post, posts, has := f.fingerprint, f.fpPost, f.fpPosts, f.hasFingerprint
	*f = r.File
	f.Markdown = "" // linked again (linkMarkdown)
	f.sum, f.mdSum, f.mod, f.change = r.Sum, r.MarkdownSum, r.Mod, r.Change
	f.fingerprint, f.fpPost, f.fpPosts, f.hasFingerprint = fp, post, posts, has
	f.kept = r
	if r.Gzip {
		f.gz = gzipFile{sum: r.GzipSum, size: r.GzipSize, mod: r.GzipMod, change: r.GzipChange}
	}
}

// withModified is h with prev's Last-Modified: the answer's bytes are
// the file's, which keeps its time.
func withModified(h, prev http.Header) http.Header {
	h = h.Clone()
	if lm := prev.Get("Last-Modified"); lm != "" {
		h.Set("Last-Modified", lm)
	} else {
		h.Del("Last-Modified")
	}
	return h
}

// serveKept is serve for an answer that may keep its previous file: when
// the body turns out to differ, it is asked again and written.
func serveKept(h http.Handler, a *fileAnswer, urlPath, encoding string) error {
	err := serve(h, a, urlPath, encoding)
	if !errors.Is(err, errChanged) {
		return err
	}
	*a = fileAnswer{w: a.w, name: a.name, keep: a.keep}
	return serve(h, a, urlPath, encoding)
}

// moveInPlace moves the files written under tmp into out.
func moveInPlace(tmp, out string, written []string) error {
	made := map[string]bool{}
	for _, name := range written {
		rel, err := filepath.Rel(tmp, name)
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		dest := filepath.Join(out, rel)
		if dir := filepath.Dir(dest); !made[dir] {
			if err := mkdirOver(out, dir); err != nil {
				return fmt.Errorf("export: %w", err)
			}
			made[dir] = true
		}
		if err := os.Rename(name, dest); err != nil {
			if errors.Is(err, fs.ErrExist) || isDirError(dest) {
				// A folder stands where the file goes: it held files
				// the export no longer has.
				if rerr := os.RemoveAll(dest); rerr == nil {
					err = os.Rename(name, dest)
				}
			}
			if err != nil {
				return fmt.Errorf("export: %w", err)
			}
		}
	}
	return nil
}

// # Pruning
//
// After an update out must hold the site's files and nothing else: the
// previous build's files the site no longer has go (the record names
// them), and so does anything else put in out since (a stray). Finding
// strays by listing every folder cost a build after a one-post edit 0.2
// to 0.35 s of CPU at 10,000 posts (10,000 folders). So the record keeps
// each folder's status-change time (ctime): adding, removing or renaming
// anything in a folder sets it, and no one can set it back. A folder
// whose time is the recorded one has had nothing added since, and is not
// listed; any other folder is, and what it holds that the site does not
// is removed, folders in it that the site does not have whole.
//
// A change within the same tick of the file system's clock as the time
// recorded would leave the time as it was, so a time is kept only when
// the file system's clock had moved past it when it was read: when it is
// before the time the file system gave a change made just before
// (probeClock: a file made in the staging folder, beside out, on the same
// file system), or, on another file system, more than racyWindow before
// the moment it was read. And a time is kept only when what the folder
// held at that moment is known: a folder's is read just before it is
// listed. A folder clean (not listed) that this build changed is listed
// by the next: its time now also has whatever anything else did in it
// since it was found clean (during the site's load, see ReadAhead), which
// only a listing tells. Any other folder is listed next time, as git
// does with the racily clean files of its index.

// racyWindow is how recent a folder's time may be, when recorded, and
// still be trusted to change with the next change in the folder: more
// than the coarsest clock of a file system in use (FAT's 2 s). (A
// variable for tests.)
var racyWindow = 3 * time.Second

// listFolder lists a folder for the pruner (tests count the calls), in
// the order the system gives: sorting the 30,000 entries of a section's
// folder (its posts' folders and twins) was a third of the listing.
var listFolder = func(name string) ([]os.DirEntry, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return f.ReadDir(-1)
}

// cleanFolders are the folders of out whose time is the one recorded
// (and usable): nothing was added to them since.
func cleanFolders(out string, recorded folderTimes) map[string]bool {
	clean := make(map[string]bool, len(recorded))
	d := openOut(out) // 14,000 folders at 10,000 posts, each looked up in out
	defer d.close()
	for dir, t := range recorded {
		if t == 0 {
			continue
		}
		if now, ok := d.folderChanged(dir); ok && now == t {
			clean[dir] = true
		}
	}
	return clean
}

// A pruner removes from out what site does not have (see Pruning).
type pruner struct {
	out      string
	site     *Site
	prev     map[string]*manifestRoute
	prevDirs folderTimes
	clean    map[string]bool
	moved    []string // the files moved into out by this build
	// clockDir is a folder beside out that may be changed, to read the
	// file system's clock (probeClock); "" for none.
	clockDir string
	// same: the site's paths are the previous build's, so its files
	// have the recorded names and its folders are the recorded ones.
	same bool

	keep    map[string]bool // the site's files
	dirs    map[string]bool // the site's folders ("" is out)
	touched map[string]bool // the folders this build changed
	removed int
	// clock is probeClock's reading taken before the first folder is
	// listed; listedAt, each listed folder's time read just before its
	// listing, with its device.
	clock    fsClock
	listedAt map[string]folderStamp
}

// A folderStamp is a folder's status-change time, its device and the
// moment it was read (Unix ns).
type folderStamp struct {
	ns, read int64
	dev      uint64
}

func (p *pruner) prune() error {
	if p.same && p.prevDirs != nil {
		return p.pruneSame()
	}
	p.keep = make(map[string]bool, 2*len(p.site.Files))
	p.dirs = map[string]bool{"": true}
	for _, f := range p.site.Files {
		p.keep[f.Name] = true
		if f.Gzip {
			p.keep[f.Name+".gz"] = true
		}
		for d := parent(f.Name); !p.dirs[d]; d = parent(d) {
			p.dirs[d] = true
		}
	}
	p.touched = map[string]bool{}
	for _, name := range p.moved {
		p.touched[parent(name)] = true
	}
	// The previous build's files the site no longer has.
	for _, r := range p.prev {
		names := []string{r.Name}
		if r.Gzip {
			names = append(names, r.Name+".gz")
		}
		for _, name := range names {
			if !p.keep[name] && !p.dirs[name] {
				if err := p.remove(name); err != nil {
					return err
				}
			}
		}
	}
	if err := p.strays(slices.Sorted(maps.Keys(p.dirs))); err != nil {
		return err
	}
	// The previous build's folders the site no longer has, deepest
	// first (their own folders left empty by now are gone with them).
	gone := slices.Collect(func(yield func(string) bool) {
		for d := range p.prevDirs {
			if !p.dirs[d] && !yield(d) {
				return
			}
		}
	})
	slices.SortFunc(gone, func(a, b string) int {
		return cmp.Or(strings.Count(b, "/")-strings.Count(a, "/"), strings.Compare(a, b))
	})
	for _, d := range gone {
		if err := p.removeFolder(d); err != nil {
			return err
		}
	}
	return nil
}

// pruneSame is prune when the site's paths are the previous build's
// (same), whose record has every folder's time: the site's files are
// those recorded, but for a route whose gzip twin went, and its
// folders the recorded ones. So only those twins go, and only the
// folders not clean are listed for strays, against the site's files in
// them alone.
func (p *pruner) pruneSame() error {
	p.touched = map[string]bool{}
	for _, name := range p.moved {
		p.touched[parent(name)] = true
	}
	var listed []string // the site's folders are the recorded ones (hasDir)
	for d := range p.prevDirs {
		if !p.clean[d] {
			listed = append(listed, d)
		}
	}
	p.keep = map[string]bool{}
	in := make(map[string]bool, len(listed))
	for _, d := range listed {
		in[d] = true
	}
	for i := range p.site.Files {
		f := &p.site.Files[i]
		if in[parent(f.Name)] {
			p.keep[f.Name] = true
			if f.Gzip {
				p.keep[f.Name+".gz"] = true
			}
		}
		// A route asked again has its record in was.
		if r := f.was; f.kept == nil && r != nil && r.Gzip && !f.Gzip {
			if err := p.remove(r.Name + ".gz"); err != nil {
				return err
			}
		}
	}
	slices.Sort(listed)
	return p.strays(listed)
}

// strays removes from the folders dirs of the site those not clean
// what the site does not have.
func (p *pruner) strays(dirs []string) error {
	if p.clockDir != "" {
		p.clock = probeClock(p.clockDir)
	}
	p.listedAt = map[string]folderStamp{}
	for _, dir := range dirs {
		if p.clean[dir] {
			continue
		}
		full := filepath.Join(p.out, filepath.FromSlash(dir))
		if t, dev, ok := dirStamp(full); ok {
			p.listedAt[dir] = folderStamp{ns: t, read: time.Now().UnixNano(), dev: dev}
		}
		entries, err := listFolder(full)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return fmt.Errorf("export: %w", err)
		}
		for _, e := range entries {
			name := join(dir, e.Name())
			switch {
			case e.IsDir() && !p.hasDir(name):
				if err := p.removeFolder(name); err != nil {
					return err
				}
			case !e.IsDir() && !p.keep[name]:
				if err := p.remove(name); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// hasDir reports whether the site has the folder name: one of dirs,
// or over the same paths (pruneSame, which makes no dirs), of the
// recorded folders.
func (p *pruner) hasDir(name string) bool {
	if p.dirs == nil {
		_, ok := p.prevDirs[name]
		return ok
	}
	return p.dirs[name]
}

// remove removes the file name (slash-separated, in out), or what
// stands in its place.
func (p *pruner) remove(name string) error {
	full := filepath.Join(p.out, filepath.FromSlash(name))
	err := os.Remove(full)
	switch {
	case err == nil:
		p.removed++
		p.touched[parent(name)] = true
	case errors.Is(err, fs.ErrNotExist):
	case isDirError(full):
		return p.removeFolder(name) // a folder where the file was
	default:
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// removeFolder removes the folder name, which the site does not have,
// with what it holds that the site has not (all of it, unless the site
// has files under it: a folder where a file goes).
func (p *pruner) removeFolder(name string) error {
	full := filepath.Join(p.out, filepath.FromSlash(name))
	if _, err := os.Lstat(full); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if _, err := prune(p.out, name, p.keep, &p.removed); err != nil {
		return err
	}
	if os.Remove(full) == nil {
		p.touched[parent(name)] = true
	}
	return nil
}

// folderTimes are the times to record of the site's folders: a folder
// clean and untouched keeps its recorded time; a listed one, the time
// read just before its listing, when the file system's clock had moved
// past it; any other, none: it is listed next time (see Pruning). A
// listed folder the build changed after its listing (a stray removed)
// then has another time than the one kept, and is listed next time too.
func (p *pruner) folderTimes() folderTimes {
	dirs := maps.Keys(p.dirs)
	n := len(p.dirs)
	if p.dirs == nil {
		dirs, n = maps.Keys(p.prevDirs), len(p.prevDirs)
	}
	out := make(folderTimes, n)
	for dir := range dirs {
		switch at, listed := p.listedAt[dir]; {
		case p.clean[dir] && !p.touched[dir]:
			out[dir] = p.prevDirs[dir]
		case listed && (at.ns < at.read-int64(racyWindow) || p.clock.past(at.ns, at.dev)):
			out[dir] = at.ns
		default:
			out[dir] = 0 // listed next time
		}
	}
	return out
}

// An fsClock is the status-change time a file system gave a change made
// in it (probeClock), and its device; ok is false when there is none.
type fsClock struct {
	ns  int64
	dev uint64
	ok  bool
}

// past reports whether the time t of a folder on the device dev, read
// after the clock was, is before it: any change to the folder after the
// read gives it a later time than t. (The clock must be read first: a
// change made after t was read but in t's tick leaves t as it was.)
func (c fsClock) past(t int64, dev uint64) bool { return c.ok && dev == c.dev && t < c.ns }

// probeClock makes a file in the folder dir, which changes it, and reads
// the time the file system gave the change. (A variable for tests.)
var probeClock = probeClockOf

func probeClockOf(dir string) fsClock {
	f, err := os.CreateTemp(dir, "clock-")
	if err != nil {
		return fsClock{}
	}
	f.Close()
	ns, dev, ok := dirStamp(dir)
	return fsClock{ns: ns, dev: dev, ok: ok}
}

// parent is the folder of the slash-separated name, "" for out.
func parent(name string) string {
	if i := strings.LastIndexByte(name, '/'); i >= 0 {
		return name[:i]
	}
	return ""
}

// join is dir/name, name alone in out.
func join(dir, name string) string {
	if dir == "" {
		return name
	}
	return dir + "/" + name
}

// mkdirOver makes the folder dir inside out, removing the files of the
// previous export that stand where its folders go.
func mkdirOver(out, dir string) error {
	err := os.MkdirAll(dir, 0o755)
	if err == nil {
		return nil
	}
	rel, rerr := filepath.Rel(out, dir)
	if rerr != nil {
		return err
	}
	p := out
	for _, part := range strings.Split(rel, string(filepath.Separator)) {
		p = filepath.Join(p, part)
		if info, serr := os.Lstat(p); serr == nil && !info.IsDir() {
			if rmErr := os.Remove(p); rmErr != nil {
				return rmErr
			}
			break
		}
	}
	return os.MkdirAll(dir, 0o755)
}

// isDirError reports whether name is a folder.
func isDirError(name string) bool {
	info, err := os.Lstat(name)
	return err == nil && info.IsDir()
}

// prune removes under out/dir what keep does not name, and the folders
// that end empty; dir is slash-separated, "" for out itself. It reports
// whether anything is left in the folder.
func prune(out, dir string, keep map[string]bool, removed *int) (bool, error) {
	entries, err := os.ReadDir(filepath.Join(out, filepath.FromSlash(dir)))
	if err != nil {
		return false, fmt.Errorf("export: %w", err)
	}
	left := len(entries)
	for _, e := range entries {
		name := e.Name()
		if dir != "" {
			name = dir + "/" + name
		}
		full := filepath.Join(out, filepath.FromSlash(name))
		switch {
		case e.IsDir():
			kept, err := prune(out, name, keep, removed)
			if err != nil {
				return false, err
			}
			if !kept && os.Remove(full) == nil {
				left--
			}
		case !keep[name]:
			if err := os.Remove(full); err != nil && !errors.Is(err, fs.ErrNotExist) {
				return false, fmt.Errorf("export: %w", err)
			}
			*removed++
			left--
		}
	}
	return left > 0, nil
}

// sortedWritten is what w wrote, in order: folders before their files is
// not needed (MkdirAll), but a stable order makes the commit repeatable.
func (w *writer) sortedWritten() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	out := slices.Clone(w.written)
	slices.SortFunc(out, strings.Compare)
	return out
}
