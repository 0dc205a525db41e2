package export

import (
	"bufio"
	"crypto/sha256"
	"encoding/gob"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
)

// A build's manifest is what it wrote, kept beside the output (for
// public/, the file .public.folio-build in public/'s folder, never
// published): every route's file record, the hashes of its bodies and
// the size and modification time of its files. The next build over the
// same output reads it to rewrite only what changed (see incremental.go).
// It is written last, once the output is complete, and removed before
// the output is touched, so a build that dies half way leaves none and
// the build after it starts cold.
type manifest struct {
	Format string
	Routes []manifestRoute
}

// manifestFormat names the manifest's layout and what decides the bytes
// of an export other than the server's answers. A manifest of another
// format is not read.
const manifestFormat = "folio-build 1"

// A manifestRoute is one exported route as the manifest keeps it.
type manifestRoute struct {
	File
	Sum, MarkdownSum, GzipSum [sha256.Size]byte
	// GzipHeader holds the gzip answer's headers, when it has a file.
	GzipHeader http.Header
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
	var m manifest
	if err := gob.NewDecoder(bufio.NewReader(f)).Decode(&m); err != nil || m.Format != format {
		return nil
	}
	byPath := make(map[string]*manifestRoute, len(m.Routes))
	for i := range m.Routes {
		byPath[m.Routes[i].Path] = &m.Routes[i]
	}
	return byPath
}

// writeManifest writes the manifest of out, whose files are site's, in
// one rename.
func writeManifest(out, format string, site *Site) error {
	m := manifest{Format: format, Routes: make([]manifestRoute, 0, len(site.Files))}
	for _, f := range site.Files {
		r := manifestRoute{File: f, Sum: f.sum, MarkdownSum: f.mdSum, Fingerprint: f.fingerprint, HasFingerprint: f.hasFingerprint,
			Size: int64(f.Size), Mod: f.mod}
		if f.Gzip {
			r.GzipSum, r.GzipHeader, r.GzipSize, r.GzipMod = f.gz.sum, f.gz.header, f.gz.size, f.gz.mod
		}
		m.Routes = append(m.Routes, r)
	}
	name := manifestPath(out)
	tmp, err := os.CreateTemp(filepath.Dir(name), tmpPrefix(name))
	if err != nil {
		return fmt.Errorf("export: manifest: %w", err)
	}
	w := bufio.NewWriter(tmp)
	err = gob.NewEncoder(w).Encode(&m)
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

// A gzipFile is what a route's gzip answer was: its body's hash, its
// headers, and its file's size and modification time.
type gzipFile struct {
	sum       [sha256.Size]byte
	header    http.Header
	size, mod int64
}
