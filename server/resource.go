package server

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"strconv"
	"time"

	"folio/pipeline"
)

// maxMemoResource is the largest bundle file kept in memory as a prepared
// representation. Larger ones (video, archives) are streamed from the
// content folder on each request, with Range support.
const maxMemoResource = 4 << 20

// resourceKey is the memo key of the bundle file file of p.
func resourceKey(p *pipeline.Post, file string) string { return "res:" + p.File + "/" + file }

// errLarge marks a bundle file too large to keep in memory.
var errLarge = errors.New("large file")

// resource answers /<section>/<slug>/<file>: a file of a page bundle.
// Only listed files match the row (lookupBundleFile), so made-up names
// cannot fill the memo.
func (s *Server) resource(w http.ResponseWriter, r *http.Request, m match) {
	st, p, file := m.st, m.post, m.value
	rp, err := st.memo(resourceKey(p, file), func() (*rep, error) {
		f, info, err := openResource(st, p, file)
		if err != nil {
			return nil, err
		}
		defer f.Close()
		if info.Size() > maxMemoResource {
			return nil, errLarge
		}
		body, err := io.ReadAll(f)
		if err != nil {
			return nil, fmt.Errorf("bundle file %s/%s: %w", p.Bundle, file, err)
		}
		return newRep(contentType(file), body, resourceModified(p, info)), nil
	})
	switch {
	case errors.Is(err, errLarge):
		s.streamResource(w, r, m)
	case errors.Is(err, fs.ErrNotExist):
		s.notFound(w, r, m)
	case err != nil:
		s.internalError(w, r, m, err)
	default:
		s.serve(w, r, m, rp)
	}
}

func openResource(st *state, p *pipeline.Post, file string) (fs.File, fs.FileInfo, error) {
	f, err := st.snap.Resource(p, file)
	if err != nil {
		return nil, nil, err
	}
	info, err := f.Stat()
	if err == nil && info.IsDir() {
		err = fs.ErrNotExist
	}
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	return f, info, nil
}

// resourceModified is the file's own modification time, else (in-memory
// content has none) the post's.
func resourceModified(p *pipeline.Post, info fs.FileInfo) time.Time {
	if t := info.ModTime(); !t.IsZero() {
		return t
	}
	return modified(p)
}

// streamResource serves a large bundle file straight from the content
// folder, with Range support. Its strong validator is made from size and
// modification time: hashing gigabytes on every snapshot would cost more
// than the cache misses it saves.
func (s *Server) streamResource(w http.ResponseWriter, r *http.Request, m match) {
	st, p, file := m.st, m.post, m.value
	f, info, err := openResource(st, p, file)
	if err != nil {
		s.notFound(w, r, m)
		return
	}
	defer f.Close()
	rs, ok := f.(io.ReadSeeker)
	if !ok {
		s.internalError(w, r, m, fmt.Errorf("bundle file %s/%s: not seekable", p.Bundle, file))
		return
	}
	mod := resourceModified(p, info)
	h := w.Header()
	h.Set("Content-Type", contentType(file))
	h.Set("ETag", `"`+strconv.FormatInt(info.Size(), 36)+"-"+strconv.FormatInt(mod.UnixNano(), 36)+`"`)
	h.Set("Cache-Control", s.cacheControl(st))
	http.ServeContent(w, r, file, mod, rs)
}
