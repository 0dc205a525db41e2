package export

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// A stagedFile is a file written under a temporary name beside its
// destination, to be renamed into place when the export is committed.
type stagedFile struct {
	name, tmp string
	// backup is a hard link to the file name held before the commit ("":
	// there was none), so that the commit can be undone.
	backup string
}

// AddFile writes data under a temporary name beside name (making its
// folder), to replace name when st is committed: the nginx config and
// its script change together with the export, or not at all. A failure
// here (a full disk) leaves name and the output as they were.
//
// Leftovers of killed builds beside name are removed first, as Stage
// does beside out: all of them when name's folder is out's or can be
// locked, else only those older than staleAfter.
func (st *Staged) AddFile(name string, data []byte) error {
	return st.AddFileFrom(name, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// AddFileFrom is AddFile with the file's bytes written by write, as
// they are made (a file too large to hold in memory beside the site).
func (st *Staged) AddFileFrom(name string, write func(io.Writer) error) error {
	dir := filepath.Dir(name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("export: %w", err)
	}
	locked := sameDir(dir, st.parent)
	if !locked {
		// Never wait here: another build may hold this folder and wait
		// for ours.
		unlock, ok, err := lockDir(dir, false)
		if err != nil {
			return fmt.Errorf("export: lock %s: %w", dir, err)
		}
		st.unlocks = append(st.unlocks, unlock)
		locked = ok
	}
	sweep(dir, tmpPrefix(name), locked)
	tmp, err := writeTemp(name, write)
	if err != nil {
		return fmt.Errorf("export: %w", err)
	}
	st.files = append(st.files, &stagedFile{name: name, tmp: tmp})
	return nil
}

// sameDir reports whether a and b name one folder.
func sameDir(a, b string) bool {
	ia, err1 := os.Stat(a)
	ib, err2 := os.Stat(b)
	return err1 == nil && err2 == nil && os.SameFile(ia, ib)
}

// writeTemp writes a new file beside name, readable by all.
func writeTemp(name string, write func(io.Writer) error) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(name), tmpPrefix(name))
	if err != nil {
		return "", err
	}
	err = write(f)
	if err == nil {
		err = f.Chmod(0o644)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// commit renames the file into place, keeping a link to what it replaces.
func (f *stagedFile) commit() error {
	backup, err := keep(f.name, f.tmp+".old")
	if err != nil {
		return fmt.Errorf("export: keep %s: %w", f.name, err)
	}
	f.backup = backup
	if err := os.Rename(f.tmp, f.name); err != nil {
		f.done()
		return fmt.Errorf("export: %w", err)
	}
	return nil
}

// keep makes backup hold what name holds, by a hard link, or a copy
// where the file system has none; "" when there is no name.
func keep(name, backup string) (string, error) {
	err := os.Link(name, backup)
	switch {
	case err == nil:
		return backup, nil
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	}
	data, rerr := os.ReadFile(name)
	if rerr != nil {
		return "", err
	}
	return backup, os.WriteFile(backup, data, 0o644)
}

// undo puts back what the file replaced.
func (f *stagedFile) undo() {
	if f.backup == "" {
		os.Remove(f.name)
		return
	}
	os.Rename(f.backup, f.name)
	f.backup = ""
}

// done drops the link to what the file replaced.
func (f *stagedFile) done() {
	if f.backup != "" {
		os.Remove(f.backup)
		f.backup = ""
	}
}
