package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// A build's manifest is what it wrote, kept beside the output (for
// public/, the file .public.folio-build in public/'s folder, never
// published): every route's file record, the hashes of its bodies and
// the size and modification time of its files. The next build over the
// same output reads it to rewrite only what changed (see incremental.go).
// It is written last, once the output is complete, and removed before
// the output is touched, so a build that dies half way leaves none and
// the build after it starts cold.
//
// On disk it is a gob stream: a manifestHead, then one manifestRecord
// per route.
type manifestHead struct {
	Format string
	Routes int
}

// A manifestRecord is a manifestRoute as the manifest stores it: headers
// and hashes as strings, which gob encodes several times faster than maps
// and arrays.
type manifestRecord struct {
	Path, Name, GzipETag, Markdown         string
	Status, Size                           int
	Gzip, HasFingerprint                   bool
	Header, MarkdownHeader                 string
	Sum, MarkdownSum, GzipSum, Fingerprint string
	Mod, GzipSize, GzipMod                 int64
}

// manifestFormat names the manifest's layout and what decides the bytes
// of an export other than the server's answers. A manifest of another
// format is not read.
const manifestFormat = "folio-build 3"

// A manifestRoute is one exported route as the manifest keeps it.
type manifestRoute struct {
	File
	Sum, MarkdownSum, GzipSum [sha256.Size]byte
	// Fingerprint is the route's Options.Fingerprint, when it had one.
	Fingerprint    [sha256.Size]byte
	HasFingerprint bool
	// The files as written: size and modification time (Unix ns).
	Size, Mod, GzipSize, GzipMod int64
}

// manifestPath is the manifest of the output folder out.
func manifestPath(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".folio-build")
}

// CachePath is the parse cache (pipeline.Cache) of a build into the
// output folder out: beside out, as its manifest is (for public/, the
// file .public.folio-cache in public/'s folder, never published).
func CachePath(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".folio-cache")
}

// format is the manifest format of an export made with opts.
func (opts Options) format() string {
	f := manifestFormat
	if opts.NoGzip {
		f += " nogzip"
	}
	return f
}

// readManifest reads out's manifest, by route path; nil when there is
// none, it is not of format, or it cannot be read (the build is then
// cold).
func readManifest(out, format string) map[string]*manifestRoute {
	f, err := os.Open(manifestPath(out))
	if err != nil {
		return nil
	}
	defer f.Close()
	dec := gob.NewDecoder(bufio.NewReader(f))
	var head manifestHead
	if err := dec.Decode(&head); err != nil || head.Format != format || head.Routes < 0 || head.Routes > 1<<24 {
		return nil
	}
	in := interner{}
	routes := make([]manifestRoute, head.Routes)
	byPath := make(map[string]*manifestRoute, head.Routes)
	for i := range routes {
		var rec manifestRecord
		if err := dec.Decode(&rec); err != nil {
			return nil
		}
		r := &routes[i]
		r.File = File{Path: rec.Path, Name: rec.Name, Status: rec.Status, Header: in.header(rec.Header), Size: rec.Size,
			Gzip: rec.Gzip, GzipETag: rec.GzipETag, Markdown: rec.Markdown, MarkdownHeader: in.header(rec.MarkdownHeader)}
		copy(r.Sum[:], rec.Sum)
		copy(r.MarkdownSum[:], rec.MarkdownSum)
		copy(r.GzipSum[:], rec.GzipSum)
		copy(r.Fingerprint[:], rec.Fingerprint)
		r.HasFingerprint = rec.HasFingerprint
		r.Size, r.Mod, r.GzipSize, r.GzipMod = int64(rec.Size), rec.Mod, rec.GzipSize, rec.GzipMod
		byPath[r.Path] = r
	}
	return byPath
}

// encodeHeader writes h as one string: names sorted, each with its
// values, NUL-separated; decodeHeader reads it back ("" is nil).
func encodeHeader(h http.Header) string {
	if h == nil {
		return ""
	}
	var b strings.Builder
	b.WriteByte('H')
	for _, k := range slices.Sorted(maps.Keys(h)) {
		b.WriteString(k)
		for _, v := range h[k] {
			b.WriteByte(0)
			b.WriteString(v)
		}
		b.WriteByte(1)
	}
	return b.String()
}

func decodeHeader(s string) http.Header { return interner{}.header(s) }

// An interner decodes headers sharing the values that many routes have
// alike (the content type, caching, the security policy), so that the
// manifest of 29,000 routes does not hold each of them 29,000 times.
// The values are never modified in place (withModified clones).
type interner map[string]internedEntry

type internedEntry struct {
	name string
	vals []string
}

func (in interner) header(s string) http.Header {
	if s == "" {
		return nil
	}
	s = s[1:]
	h := make(http.Header, strings.Count(s, "\x01"))
	for entry := range strings.SplitSeq(s, "\x01") {
		if entry == "" {
			continue
		}
		e, ok := in[entry]
		if !ok {
			entry = strings.Clone(entry)
			parts := strings.Split(entry, "\x00")
			e = internedEntry{parts[0], parts[1:]}
			in[entry] = e
		}
		h[e.name] = e.vals
	}
	return h
}

// writeManifest writes the manifest of out, whose files are site's, in
// one rename.
func writeManifest(out, format string, site *Site) error {
	name := manifestPath(out)
	tmp, err := os.CreateTemp(filepath.Dir(name), tmpPrefix(name))
	if err != nil {
		return fmt.Errorf("export: manifest: %w", err)
	}
	// One gob message per route, so that the manifest is never whole
	// in memory.
	w := bufio.NewWriter(tmp)
	enc := gob.NewEncoder(w)
	err = enc.Encode(manifestHead{Format: format, Routes: len(site.Files)})
	for i := 0; err == nil && i < len(site.Files); i++ {
		f := &site.Files[i]
		r := manifestRecord{Path: f.Path, Name: f.Name, GzipETag: f.GzipETag, Markdown: f.Markdown, Status: f.Status, Size: f.Size,
			Gzip: f.Gzip, HasFingerprint: f.hasFingerprint, Header: encodeHeader(f.Header), MarkdownHeader: encodeHeader(f.MarkdownHeader),
			Sum: string(f.sum[:]), MarkdownSum: string(f.mdSum[:]), Fingerprint: string(f.fingerprint[:]), Mod: f.mod}
		if f.Gzip {
			r.GzipSum, r.GzipSize, r.GzipMod = string(f.gz.sum[:]), f.gz.size, f.gz.mod
		}
		err = enc.Encode(&r)
	}
	if err == nil {
		err = w.Flush()
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), name)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return fmt.Errorf("export: manifest: %w", err)
	}
	return nil
}

// removeManifest removes out's manifest; true when there is none left.
func removeManifest(out string) bool {
	err := os.Remove(manifestPath(out))
	return err == nil || errors.Is(err, os.ErrNotExist)
}

// A gzipFile is what a route's gzip answer was: its body's hash, and its
// file's size and modification time (its ETag is File.GzipETag).
type gzipFile struct {
	sum       [sha256.Size]byte
	size, mod int64
}
