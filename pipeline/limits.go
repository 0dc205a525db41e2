package pipeline

import (
	"io"
	"io/fs"
)

// MaxPostSize is the largest post file read. A blog post is rarely above
// a few hundred kilobytes; past this size rendering alone takes seconds
// and hundreds of megabytes (goldmark keeps the whole AST), so a larger
// file is a problem that names it instead of a post. Bundle resources are
// not posts and have no such limit (large ones are streamed).
const MaxPostSize = 16 << 20

// errTooLarge is the problem for a post file over MaxPostSize.
func errTooLarge(size int64) *contentError {
	return errorAt(1, "post too large: %d bytes (the limit is %d MiB)", size, MaxPostSize>>20)
}

// A SmallFileFS is an fs.FS with a quicker way to read a whole small
// file than Open, Stat, Read and Close: folio's content folder reads it
// with one open beneath the folder, one stat and one read (host). At
// 100,000 posts the usual way cost 2 s of CPU, most of it system calls.
type SmallFileFS interface {
	fs.FS
	// ReadSmallFile reads the regular file name whole when it holds at
	// most max bytes, with what a stat of the file opened said before
	// it was read (whose Sys is a *syscall.Stat_t where the system has
	// one: the parse cache's stamp of the bytes read, cache.go). ok is
	// false when it did not, for whatever reason (a larger or special
	// file, any error): the caller then reads it the usual way, which says
	// why.
	ReadSmallFile(name string, max int64) (data []byte, info fs.FileInfo, ok bool)
}

// readPost reads a post file, refusing one over MaxPostSize without
// reading it whole: the size is checked before reading and the read
// itself stops one byte past the limit, in case the file grows meanwhile.
// info is what a stat of the file opened said before the read, nil when
// there was none.
func readPost(fsys fs.FS, name string) (src []byte, info fs.FileInfo, err error) {
	if small, ok := fsys.(SmallFileFS); ok {
		if src, info, ok := small.ReadSmallFile(name, MaxPostSize); ok {
			return src, info, nil
		}
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	size := int64(512)
	if info, err = f.Stat(); err == nil {
		if info.Size() > MaxPostSize {
			return nil, nil, errTooLarge(info.Size())
		}
		size = max(size, info.Size()+1) // +1 to meet EOF without growing
	} else {
		info = nil
	}
	src, err = readAll(io.LimitReader(f, MaxPostSize+1), size)
	if err != nil {
		return nil, nil, err
	}
	if len(src) > MaxPostSize {
		return nil, nil, errTooLarge(int64(len(src)))
	}
	return src, info, nil
}

// readAll is io.ReadAll with the buffer sized from the start: io.ReadAll
// begins at 512 bytes and grows, which cost a build of 10,000 posts about
// 70,000 read calls instead of 20,000, and a copy of every file.
func readAll(r io.Reader, size int64) ([]byte, error) {
	b := make([]byte, 0, size)
	for {
		if len(b) == cap(b) {
			b = append(b, 0)[:len(b)]
		}
		n, err := r.Read(b[len(b):cap(b)])
		b = b[:len(b)+n]
		if err == io.EOF {
			return b, nil
		}
		if err != nil {
			return b, err
		}
	}
}
