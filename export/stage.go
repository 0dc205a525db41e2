package export

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// A Staged export is written in full into a folder beside its output,
// not yet in the output's place. Commit puts it there, together with the
// files staged with AddFile (the nginx config); Abort throws it all away.
// Until one of them is called, the folder beside the output is locked
// against other folio builds.
type Staged struct {
	// Site is what was exported.
	Site *Site
	// Leftover, after a Commit, names the previous output when it could
	// not be removed; the next build beside it removes it.
	Leftover string

	out, tmp string
	parent   string // out's folder, locked
	files    []*stagedFile
	unlocks  []func()

	// inPlace: out is updated with what changed (incremental.go) rather
	// than replaced; written are the files written under tmp.
	inPlace bool
	written []string
	format  string
	// prev and prevDirs are the previous build's record (over a
	// previous export).
	prev     map[string]*manifestRoute
	prevDirs folderTimes
	// same: the paths are the previous build's.
	same bool
	// cache is the stamp of the parse cache this build read whole and
	// leaves in place (KeepCache), for the record.
	cache *fileStamp
	// ahead, when the record was taken from it, found which folders are
	// clean (Ahead.folders).
	ahead *Ahead
}

// tmpPrefix starts the names of everything a build of out writes beside
// it before putting it in place: its staged folder (and the previous
// output, on its way out) and the temporary files of StageFile.
func tmpPrefix(name string) string { return "." + filepath.Base(name) + ".tmp-" }

// Stage asks h for every path and writes the answers into a fresh folder
// beside out, which Commit then puts in out's place. A failure leaves
// nothing behind and out untouched.
//
// A build killed half way (kill -9, a power cut) leaves its folder
// behind; Stage removes such leftovers of out's earlier builds first.
// It holds a lock on out's parent folder meanwhile (released by Commit
// or Abort, or by the system when the process dies), so it never removes
// what another build is still writing.
func Stage(out string, h http.Handler, paths []string, opts Options) (*Staged, error) {
	if err := Replaceable(out); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	unlock, locked, err := lockDir(parent, true)
	if err != nil {
		return nil, fmt.Errorf("export: lock %s: %w", parent, err)
	}
	sweep(parent, tmpPrefix(out), locked)
	// A record killed half written (startRecord writes it while the
	// build prunes).
	sweep(parent, tmpPrefix(manifestPath(out)), locked)
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		// The record and parse cache of an output that is gone: a build
		// into a new folder starts afresh (and one that fails leaves
		// nothing).
		removeManifest(out)
		os.Remove(CachePath(out))
	}
	tmp, err := os.MkdirTemp(parent, tmpPrefix(out))
	if err != nil {
		unlock()
		return nil, fmt.Errorf("export: %w", err)
	}
	st := &Staged{Site: &Site{}, out: out, tmp: tmp, parent: parent, unlocks: []func(){unlock}, format: opts.format()}
	if err := st.write(h, paths, opts); err != nil {
		st.Abort()
		return nil, err
	}
	return st, nil
}

// write fills the staged folder and records the answers a static host
// makes at request time.
func (st *Staged) write(h http.Handler, paths []string, opts Options) error {
	var err error
	site := st.Site
	w := &writer{dir: st.tmp, routes: len(paths)}
	if len(opts.Aliases) > 0 {
		// The alias pages are routes of the export, after the others
		// (writeAll names them apart).
		w.aliases = make(map[string]Alias, len(opts.Aliases))
		paths = slices.Clip(paths)
		for _, a := range opts.Aliases {
			if _, dup := w.aliases[a.Path]; !dup {
				w.aliases[a.Path] = a
				w.aliasList = append(w.aliasList, a)
				paths = append(paths, a.Path)
			}
		}
	}
	if opts.Fingerprint != nil && len(paths) > 0 {
		// What every fingerprint starts from (the site's digest) is made
		// on the first call: meanwhile, the previous record is read.
		if opts.Shape != nil {
			go opts.Shape()
		} else {
			go opts.Fingerprint(paths[0], nil)
		}
	}
	if !opts.Cold {
		if info, err := os.Lstat(st.out); err == nil && info.IsDir() {
			prev, dirs, shape, ahead := opts.Ahead.take(st.out, st.format)
			if ahead {
				st.ahead = opts.Ahead
			} else {
				prev, dirs, shape = readManifest(st.out, st.format)
			}
			if w.prev, st.prevDirs = prev, dirs; w.prev != nil {
				// Whether the paths are the previous build's (29,000
				// looked up at 10,000 posts) is seen while the shape is
				// made, not after.
				same := make(chan []*manifestRoute, 1)
				go func() { same <- w.samePaths(paths) }()
				w.prevs = same
				if shape != nil && opts.Fingerprint != nil && opts.Shape != nil && opts.Refingerprint != nil {
					site.shape = new([sha256.Size]byte)
					*site.shape = opts.Shape()
					w.sameShape = *site.shape == *shape
				}
				st.prev = w.prev
				w.out, st.inPlace = st.out, true
				w.outDir = openOut(st.out)
				defer w.outDir.close()
			}
		}
	}
	if site.shape == nil && opts.Fingerprint != nil && opts.Shape != nil {
		site.shape = new([sha256.Size]byte)
		*site.shape = opts.Shape()
	}
	if site.Files, err = writeAll(w, h, paths, opts); err != nil {
		return err
	}
	st.written, st.same = w.sortedWritten(), w.same
	site.AliasesLeftOut = w.left
	site.Updated, site.Written = st.inPlace, len(st.written)
	site.Redirects = redirects(h, opts.Redirects)
	site.Malformed = opts.Malformed
	if site.Indexes, err = indexes(h, site.Files, opts.Indexes); err != nil {
		return err
	}
	if site.Dynamic, err = record(h, site.Files, opts.Malformed); err != nil {
		return err
	}
	if stopped(opts.Stop) {
		return ErrStopped
	}
	if opts.Check != nil {
		if err := opts.Check(); err != nil {
			return err
		}
	}
	return os.Chmod(st.tmp, 0o755) // MkdirTemp makes it 0700
}

// Abort removes the staged folder and files; out and the files' names
// stay as they were. It does nothing after Commit, so it may be deferred.
func (st *Staged) Abort() {
	if st.unlocks == nil {
		return
	}
	os.RemoveAll(st.tmp)
	for _, f := range st.files {
		os.Remove(f.tmp)
	}
	st.release()
}

// release lets other builds beside out go on.
func (st *Staged) release() {
	for _, unlock := range st.unlocks {
		unlock()
	}
	st.unlocks = nil
}

// Commit puts the staged folder in out's place, in one step where the
// system can exchange two names (see exchange), then each file staged
// with AddFile in its place, each in one rename. When a file cannot be
// put in place, the files already replaced and the previous output are
// put back and the error returned: the folder and the files change
// together or not at all.
//
// Once all is in place, the previous output is removed; if that fails,
// the export still stands and Leftover says where the old one is.
func (st *Staged) Commit() error {
	if st.unlocks == nil {
		return errors.New("export: Commit after Commit or Abort")
	}
	if st.inPlace {
		return st.commitInPlace()
	}
	if !removeManifest(st.out) {
		st.Abort()
		return fmt.Errorf("export: cannot remove %s", manifestPath(st.out))
	}
	old, err := swapIn(st.tmp, st.out)
	if err != nil {
		st.Abort()
		return err
	}
	defer st.release()
	for i, f := range st.files {
		if err := f.commit(); err != nil {
			for _, done := range slices.Backward(st.files[:i]) {
				done.undo()
			}
			for _, f := range st.files[i:] {
				os.Remove(f.tmp)
			}
			if uerr := swapOut(st.tmp, st.out, old); uerr != nil {
				return fmt.Errorf("%w (and putting the previous output back failed: %v)", err, uerr)
			}
			return err
		}
	}
	for _, f := range st.files {
		f.done()
	}
	if old != "" {
		if err := os.RemoveAll(old); err != nil {
			st.Leftover = old
		}
	}
	// Without its manifest the export stands; the next build is cold.
	// It is written from its pieces (15 MB at 10,000 posts), not
	// copied into one buffer first, at the build's end, when its heap
	// is largest.
	writeManifest(st.out, encodeRoutes(st.Site).parts(st.format, nil, st.Site.shape)...)
	return nil
}

// commitInPlace is Commit over a previous export: the files staged with
// AddFile are put in place, out's manifest goes, the new files move in
// and the gone ones out, then the new manifest is written. Unlike the
// swap, what was done to out is not undone when moving files fails (on
// one file system, it does not for want of space): out is left without a
// manifest, and the next build writes it whole.
func (st *Staged) commitInPlace() error {
	defer st.release()
	defer os.RemoveAll(st.tmp)
	// The files staged with AddFile first, where a failure is undone
	// whole: out is not touched yet.
	for i, f := range st.files {
		if err := f.commit(); err != nil {
			for _, done := range slices.Backward(st.files[:i]) {
				done.undo()
			}
			for _, f := range st.files[i:] {
				os.Remove(f.tmp)
			}
			return err
		}
	}
	// Which folders may hold a file the record does not know of is
	// seen before out is touched (see prune).
	clean := st.ahead.folders()
	if clean == nil {
		clean = cleanFolders(st.out, st.prevDirs)
	}
	if !removeManifest(st.out) {
		st.undoFiles()
		return fmt.Errorf("export: cannot remove %s", manifestPath(st.out))
	}
	if err := moveInPlace(st.tmp, st.out, st.written); err != nil {
		st.undoFiles()
		return err
	}
	moved := st.movedNames()
	st.restamp(moved)
	// Every file of the new record is in place: the record is encoded
	// and written while what the site no longer has is removed, and
	// finished once the folders' times are known.
	record := startRecord(st.out, st.format, st.Site)
	p := &pruner{out: st.out, site: st.Site, prev: st.prev, prevDirs: st.prevDirs, clean: clean, moved: moved, same: st.same, clockDir: st.tmp}
	err := p.prune()
	st.Site.Removed = p.removed
	if err != nil {
		record.abort()
		st.undoFiles() // out is left without a record: the next build is cold
		return err
	}
	// Without its record the export stands; the next build is cold.
	_ = record.finish(st.out, st.format, p.folderTimes(), st.Site.shape, st.cache)
	for _, f := range st.files {
		f.done()
	}
	return nil
}

// restamp reads again the status-change times of the files moved into
// out (names in out, slash-separated), which the rename set: the record
// holds each file's time after the build's last change to it. A file
// gone meanwhile is recorded with none (0), so the next build writes it.
func (st *Staged) restamp(moved []string) {
	if len(moved) == 0 {
		return
	}
	change := make(map[string]*int64, len(moved))
	for i := range st.Site.Files {
		if f := &st.Site.Files[i]; f.kept == nil {
			change[f.Name] = &f.change
			if f.Gzip {
				change[f.Name+".gz"] = &f.gz.change
			}
		}
	}
	d := openOut(st.out)
	defer d.close()
	for _, name := range moved {
		if c := change[name]; c != nil {
			_, _, *c, _ = d.regular(name)
		}
	}
}

// movedNames are the names in out (slash-separated) of the files
// written.
func (st *Staged) movedNames() []string {
	out := make([]string, 0, len(st.written))
	for _, name := range st.written {
		if rel, err := filepath.Rel(st.tmp, name); err == nil {
			out = append(out, filepath.ToSlash(rel))
		}
	}
	return out
}

// undoFiles puts back what the files staged with AddFile replaced.
func (st *Staged) undoFiles() {
	for _, f := range slices.Backward(st.files) {
		f.undo()
	}
}

// swapIn puts tmp in out's place and returns where the previous output
// now is ("" when there was none).
func swapIn(tmp, out string) (old string, err error) {
	if _, err := os.Lstat(out); errors.Is(err, fs.ErrNotExist) {
		if err := os.Rename(tmp, out); err != nil {
			return "", fmt.Errorf("export: %w", err)
		}
		return "", nil
	}
	old, err = exchange(tmp, out)
	if err != nil {
		return "", fmt.Errorf("export: replace %s: %w", out, err)
	}
	return old, nil
}

// swapOut undoes swapIn: the previous output, at old, goes back to out,
// and the new one is removed.
func swapOut(tmp, out, old string) error {
	if old == "" {
		if err := os.Rename(out, tmp); err != nil {
			return err
		}
		return os.RemoveAll(tmp)
	}
	gone, err := exchange(old, out)
	if err != nil {
		return err
	}
	return os.RemoveAll(gone)
}

// renameAside is exchange where the system has no atomic exchange: the
// old output is renamed away, then the new one in. Between the two renames
// (microseconds) out does not exist; it is never half written.
func renameAside(tmp, out string) (old string, err error) {
	old = tmp + ".old"
	if err := os.Rename(out, old); err != nil {
		return "", err
	}
	if err := os.Rename(tmp, out); err != nil {
		os.Rename(old, out)
		return "", err
	}
	return old, nil
}

// staleAfter is how old a leftover must be before it is removed where
// no lock tells a killed build's folder from a running one's.
const staleAfter = 24 * time.Hour

// sweep removes what earlier builds left in dir under names starting
// with prefix. Without the lock (locked false), only what has not been
// touched for staleAfter.
func sweep(dir, prefix string, locked bool) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !strings.HasPrefix(e.Name(), prefix) {
			continue
		}
		if !locked {
			info, err := e.Info()
			if err != nil || time.Since(info.ModTime()) < staleAfter {
				continue
			}
		}
		os.RemoveAll(filepath.Join(dir, e.Name()))
	}
}

// KeepCache says that the parse cache beside out (CachePath) is the file
// info describes when this build opened it, that the build read it and
// found it whole (its CRC-32C), and does not replace it. The record then
// keeps its stamp, and the next build does not compute the CRC of a
// cache of the same stamp (Ahead.CacheWhole): the file was not written
// since. A stamp less than racyWindow older than began, when the build
// began (before the file was opened), is not kept (a write in the same
// tick of the file system's clock could leave it as it was), nor one the
// system cannot give.
func (st *Staged) KeepCache(info os.FileInfo, began time.Time) {
	s, ok := stampOf(info)
	if ok && !began.IsZero() && s.change < began.Add(-racyWindow).UnixNano() {
		st.cache = &s
	}
}
