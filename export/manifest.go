package export

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"unsafe"
)

// A build's manifest is what it wrote, kept beside the output (for
// public/, the file .public.folio-build in public/'s folder, never
// published): every route's file record, the hashes of its bodies and
// the size, modification and status-change times of its files. The next
// build over the same output reads it to rewrite only what changed (see
// incremental.go).
// It is written last, once the output is complete, and removed before
// the output is touched, so a build that dies half way leaves none and
// the build after it starts cold.
//
// On disk it is written by hand, without reflection (gob took 0.3 s to
// read the 29,000 routes of 10,000 posts, and 0.2 s to write them): the
// format's line, then the number of header entries and routes, the
// payload's length and its CRC-32C, then the payload: every distinct
// header entry (a name and its values) once, then each route, its
// headers as entry numbers, then the output's folders with their
// status-change times when the record was written (none after a cold
// build: see prune in incremental.go). A manifest of another format, cut
// short or corrupt is not read: the build is then cold. The record ends
// with the site's shape (Options.Shape) when it had one: a build of the
// same shape trusts the recorded fingerprints made of no body; then the
// stamp of the parse cache the build read whole and left in place, when
// it did (Staged.KeepCache): the next build does not compute the CRC of
// a cache of that stamp (Ahead.CacheWhole).

// manifestFormat names the manifest's layout and what decides the bytes
// of an export other than the server's answers. A manifest of another
// format is not read.
const manifestFormat = "folio-build 7"

// A manifestRoute is one exported route as the manifest keeps it.
type manifestRoute struct {
	File
	Sum, MarkdownSum, GzipSum [sha256.Size]byte
	// Fingerprint is the route's Options.Fingerprint, when it had one,
	// and FingerprintPost and FingerprintPosts whose bodies it was made
	// of (Print).
	Fingerprint      [sha256.Size]byte
	FingerprintPost  string
	FingerprintPosts bool
	HasFingerprint   bool
	// The files as written: size, modification and status-change
	// times (Unix ns; see intactIn).
	Size, Mod, Change, GzipSize, GzipMod, GzipChange int64

	// raw is the route's encoding in the record, its header entries
	// numbered in table, from rawOff in the record's payload: a route
	// kept as it was is written into the next record as these bytes
	// (encodeRoutes).
	raw    string
	rawOff int
	table  *recordTable
	// The headers are decoded only when asked for (headers): most
	// routes of a build after an edit are kept, and what needs their
	// headers (nginx, Cloudflare) reads them after. hdrOff is where they
	// are in raw; hasMD says MarkdownHeader is not nil.
	hdrOff         int
	hasMD, decoded bool

	// index is the route's place in the record; looked says whether its
	// files were found in out as recorded (intact), once looked at.
	// (atomic).
	index  int
	looked int32
}

// headers decodes the route's Header and MarkdownHeader, once. A route
// is asked for them by one goroutine at a time (the one exporting its
// path, or the build after the export).
func (r *manifestRoute) headers() {
	if r.decoded || r.table == nil {
		return
	}
	r.decoded = true
	d := recordDecoder{data: r.raw, off: r.hdrOff}
	r.Header, r.MarkdownHeader = d.header(r.table.entries), d.header(r.table.entries)
	r.File.Header, r.File.MarkdownHeader = r.Header, r.MarkdownHeader
}

// fillHeaders gives the files kept from the previous record (File.kept)
// their headers, for what reads them.
func (s *Site) fillHeaders() {
	for i := range s.Files {
		s.Files[i].fillHeaders()
	}
}

// fillHeaders gives f its headers: kept from the previous record, or
// packed once written (packhdr.go).
func (f *File) fillHeaders() {
	if f.Header != nil || f.MarkdownHeader != nil {
		return
	}
	if p := f.packed; p != nil {
		f.Header, f.MarkdownHeader = p.table.unpack(p.plain), p.table.unpack(p.md)
		f.packed = nil
		return
	}
	if r := f.kept; r != nil {
		r.headers()
		f.Header, f.MarkdownHeader = r.Header, r.MarkdownHeader
	}
}

// hasMarkdown reports whether f's page has a Markdown answer
// (MarkdownHeader), its headers decoded or not.
func (f *File) hasMarkdown() bool {
	return f.MarkdownHeader != nil || (f.packed != nil && f.packed.md != "") || (f.kept != nil && f.kept.hasMD)
}

// A recordTable is a record's table of header entries, as bytes and
// decoded, and how many of them some route refers to.
type recordTable struct {
	raw     string
	entries []internedEntry
	live    int
	// data is the record's payload, whose routes' encodings (raw, from
	// rawOff) are pieces of it.
	data string
}

// manifestPath is the manifest of the output folder out.
func manifestPath(out string) string {
	out = filepath.Clean(out)
	return filepath.Join(filepath.Dir(out), "."+filepath.Base(out)+".folio-build")
}

// Recorded reports whether out has a previous build's record beside it:
// a build into out then writes only what changed (else every file,
// cold).
func Recorded(out string) bool {
	info, err := os.Lstat(manifestPath(out))
	return err == nil && info.Mode().IsRegular()
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

// manifestHeadSize is the length of the numbers after the format line.
const manifestHeadSize = 8 + 8 + 8 + 4

// readManifest reads out's manifest, by route path; nil when there is
// none, it is not of format, or it cannot be read (the build is then
// cold).
func readManifest(out, format string) (map[string]*manifestRoute, folderTimes, *[sha256.Size]byte) {
	data, err := os.ReadFile(manifestPath(out))
	if err != nil {
		return nil, nil, nil
	}
	return decodeManifest(data, format)
}

// folderTimes are the output's folders ("" for out itself, else
// slash-separated) and their status-change times (dirChanged) when a
// manifest was written.
type folderTimes map[string]int64

// decodeManifest reads a manifest's bytes, and the shape it records (nil
// for none); nil when they are not a manifest of format. The routes'
// strings are pieces of data, not copies (a copy of the 15 MB at 10,000
// posts cost 5-10 ms): data is never written once read.
func decodeManifest(data []byte, format string) (map[string]*manifestRoute, folderTimes, *[sha256.Size]byte) {
	routes, dirs, shape, _ := decodeRecord(data, format)
	return routes, dirs, shape
}

// decodeRecord is decodeManifest, and the stamp of the parse cache the
// record says its build read whole and left in place (nil for none; see
// Staged.KeepCache).
func decodeRecord(data []byte, format string) (map[string]*manifestRoute, folderTimes, *[sha256.Size]byte, *fileStamp) {
	headSize := len(format) + 1 + manifestHeadSize
	if len(data) < headSize || string(data[:len(format)+1]) != format+"\n" {
		return nil, nil, nil, nil
	}
	nums := data[len(format)+1:]
	entries, routes := binary.LittleEndian.Uint64(nums), binary.LittleEndian.Uint64(nums[8:])
	size, crc := binary.LittleEndian.Uint64(nums[16:]), binary.LittleEndian.Uint32(nums[24:])
	buf := data[headSize:]
	if size != uint64(len(buf)) || entries > size || routes > size || crc32.Checksum(buf, castagnoli) != crc {
		return nil, nil, nil, nil
	}
	// One string holds every string of the manifest: the routes' and
	// headers' strings are pieces of it.
	d := &recordDecoder{data: unsafe.String(unsafe.SliceData(buf), len(buf))}
	table := make([]internedEntry, entries)
	d.used = make([]bool, entries)
	for i := range table {
		e := &table[i]
		e.name = d.string()
		n := d.count()
		if n >= 0 {
			e.vals = make([]string, n)
			for j := range e.vals {
				e.vals[j] = d.string()
			}
		}
	}
	kept := &recordTable{raw: d.data[:d.off], entries: table, data: d.data}
	all := make([]manifestRoute, routes)
	byPath := make(map[string]*manifestRoute, routes)
	for i := range all {
		r := &all[i]
		start := d.off
		r.Path, r.Name, r.GzipETag, r.Markdown = d.string(), d.string(), d.string(), d.string()
		r.Status, r.File.Size = int(d.uvarint()), int(d.uvarint())
		flags := d.byte()
		r.Gzip, r.HasFingerprint = flags&1 != 0, flags&2 != 0
		r.hdrOff = d.off - start
		d.skipHeader(len(table))
		r.hasMD = d.skipHeader(len(table))
		d.sum(&r.Sum)
		d.sum(&r.MarkdownSum)
		d.sum(&r.GzipSum)
		d.sum(&r.Fingerprint)
		r.Size = int64(r.File.Size)
		r.Mod, r.GzipSize, r.GzipMod = d.int(), d.int(), d.int()
		r.Change, r.GzipChange = d.int(), d.int()
		r.FingerprintPost, r.FingerprintPosts = d.string(), flags&4 != 0
		if d.failed {
			return nil, nil, nil, nil
		}
		r.raw, r.rawOff, r.table, r.index = d.data[start:d.off], start, kept, i
		byPath[r.Path] = r
	}
	var dirs folderTimes
	if n := d.count(); n >= 0 {
		dirs = make(folderTimes, n)
		for range n {
			name := d.string()
			dirs[name] = d.int()
		}
	}
	var shape *[sha256.Size]byte
	if d.byte() == 1 {
		shape = new([sha256.Size]byte)
		d.sum(shape)
	}
	var cache *fileStamp
	if d.byte() == 1 {
		cache = &fileStamp{dev: d.uvarint(), ino: d.uvarint(), size: d.int(), mod: d.int(), change: d.int()}
	}
	if d.failed || d.off != len(d.data) {
		return nil, nil, nil, nil
	}
	kept.live = d.live
	return byPath, dirs, shape, cache
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// A recordDecoder reads a manifest's payload; any length beyond what is
// left fails it, and it then reads zeros.
type recordDecoder struct {
	data   string
	off    int
	failed bool
	// used marks the header entries some route refers to; live counts
	// them.
	used []bool
	live int
}

func (d *recordDecoder) fail() { d.failed, d.off = true, len(d.data) }

func (d *recordDecoder) byte() byte {
	if d.off >= len(d.data) {
		d.fail()
		return 0
	}
	d.off++
	return d.data[d.off-1]
}

func (d *recordDecoder) uvarint() uint64 {
	var n uint64
	for shift := 0; shift < 64; shift += 7 {
		b := d.byte()
		n |= uint64(b&0x7f) << shift
		if b < 0x80 {
			return n
		}
	}
	d.fail()
	return 0
}

func (d *recordDecoder) int() int64 {
	u := d.uvarint()
	return int64(u>>1) ^ -int64(u&1)
}

func (d *recordDecoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.data)-d.off) {
		d.fail()
		return ""
	}
	s := d.data[d.off : d.off+int(n)]
	d.off += int(n)
	return s
}

// count reads a length written by recordEncoder.count: -1 for nil.
func (d *recordDecoder) count() int {
	n := d.uvarint()
	if n == 0 {
		return -1
	}
	if n-1 > uint64(len(d.data)-d.off) {
		d.fail()
		return -1
	}
	return int(n - 1)
}

func (d *recordDecoder) sum(s *[sha256.Size]byte) {
	if len(d.data)-d.off < sha256.Size {
		d.fail()
		return
	}
	copy(s[:], d.data[d.off:])
	d.off += sha256.Size
}

// header reads a header set: its entries' numbers in table. The values
// are shared by every route that has them, and never modified in place
// (withModified clones).
func (d *recordDecoder) header(table []internedEntry) http.Header {
	n := d.count()
	if n < 0 {
		return nil
	}
	h := make(http.Header, n)
	for range n {
		i := d.uvarint()
		if i >= uint64(len(table)) {
			d.fail()
			return nil
		}
		h[table[i].name] = table[i].vals
	}
	return h
}

// skipHeader passes over a header set of entries in a table of n,
// noting the entries used; false for a nil set.
func (d *recordDecoder) skipHeader(n int) bool {
	c := d.count()
	for range max(c, 0) {
		i := d.uvarint()
		if i >= uint64(n) {
			d.fail()
			return false
		}
		if !d.used[i] {
			d.used[i] = true
			d.live++
		}
	}
	return c >= 0
}

// An internedEntry is one header name with its values.
type internedEntry struct {
	name string
	vals []string
}

// A recordEncoder writes a manifest's payload: the routes as they come,
// the header entries into a table of their own.
//
// Over a previous record (base), the table is the base's followed by
// the entries new to it (table), and the routes are pieces of the base's
// payload (the routes kept, copied as they were encoded) between the
// routes encoded afresh (routes): chunks says which, in order. Neither
// is copied into a buffer of the new record's (15 MB at 10,000 posts);
// they are written from the previous record's bytes.
type recordEncoder struct {
	routes, table []byte
	chunks        []recordChunk
	// number is each entry's number in the table: by name and value
	// for an entry of one value (most), by name and all values, joined,
	// for the others.
	single  map[[2]string]uint64
	several map[string]uint64
	entries uint64
	files   int // routes encoded
	// base is the previous record's table, which the table starts
	// with, when it does (seed): its routes kept as they were are
	// copied as they were encoded. Its entries are numbered in single
	// and several only once a route is encoded afresh.
	base    *recordTable
	indexed bool
}

// A recordChunk is a piece of the routes' encoding: of the base's
// payload (old), else of recordEncoder.routes.
type recordChunk struct {
	old      bool
	from, to int
}

// chunk adds a piece of the routes' encoding, joined to the last when it
// follows it.
func (e *recordEncoder) chunk(old bool, from, to int) {
	if n := len(e.chunks); n > 0 && e.chunks[n-1].old == old && e.chunks[n-1].to == from {
		e.chunks[n-1].to = to
		return
	}
	e.chunks = append(e.chunks, recordChunk{old: old, from: from, to: to})
}

// routeBytes are the routes' encoding, in its pieces.
func (e *recordEncoder) routeBytes() [][]byte {
	out := make([][]byte, 0, len(e.chunks))
	for _, c := range e.chunks {
		if c.old {
			out = append(out, stringBytes(e.base.data[c.from:c.to]))
		} else {
			out = append(out, e.routes[c.from:c.to])
		}
	}
	return out
}

// tableBytes are the header table's encoding, in its pieces: the base's,
// then the entries added.
func (e *recordEncoder) tableBytes() [][]byte {
	if e.base == nil {
		return [][]byte{e.table}
	}
	return [][]byte{stringBytes(e.base.raw), e.table}
}

// stringBytes are s's bytes, to be read only (written to a file, hashed).
func stringBytes(s string) []byte { return unsafe.Slice(unsafe.StringData(s), len(s)) }

// maxGarbage is the share of a previous record's header entries that no
// route refers to any more (a changed route's previous ETag…) beyond
// which its table is not carried into the next record, which is then
// encoded afresh, without them.
const maxGarbage = 0.2

// seed starts the table with the previous record's, t.
func (e *recordEncoder) seed(t *recordTable) {
	e.base = t
	e.entries = uint64(len(t.entries))
}

// index numbers the base's entries in single and several, once.
func (e *recordEncoder) index() {
	if e.indexed || e.base == nil {
		return
	}
	e.indexed = true
	for i, en := range e.base.entries {
		if len(en.vals) == 1 {
			k := [2]string{en.name, en.vals[0]}
			if _, dup := e.single[k]; !dup {
				e.single[k] = uint64(i)
			}
			continue
		}
		k := severalKey(en.name, en.vals)
		if _, dup := e.several[k]; !dup {
			e.several[k] = uint64(i)
		}
	}
}

// severalKey is the key of an entry of other than one value: each value
// after its length, so that no two lists make one key.
func severalKey(name string, vals []string) string {
	key := []byte(name)
	if vals == nil {
		key = append(key, 0)
	}
	for _, v := range vals {
		key = binary.AppendUvarint(append(key, 1), uint64(len(v)))
		key = append(key, v...)
	}
	return string(key)
}

func (e *recordEncoder) uvarint(b []byte, n uint64) []byte { return binary.AppendUvarint(b, n) }

func (e *recordEncoder) string(b []byte, s string) []byte {
	return append(binary.AppendUvarint(b, uint64(len(s))), s...)
}

// appendCount writes a length, 0 for nil.
func appendCount(b []byte, n int, isNil bool) []byte {
	if isNil {
		return binary.AppendUvarint(b, 0)
	}
	return binary.AppendUvarint(b, uint64(n)+1)
}

// entry is the number of the header entry name: vals, added to the
// table when new.
func (e *recordEncoder) entry(name string, vals []string) uint64 {
	if len(vals) == 1 {
		if i, ok := e.single[[2]string{name, vals[0]}]; ok {
			return i
		}
	} else {
		key := severalKey(name, vals)
		if i, ok := e.several[key]; ok {
			return i
		}
		e.several[key] = e.entries
	}
	if len(vals) == 1 {
		e.single[[2]string{name, vals[0]}] = e.entries
	}
	e.table = e.string(e.table, name)
	e.table = appendCount(e.table, len(vals), vals == nil)
	for _, v := range vals {
		e.table = e.string(e.table, v)
	}
	e.entries++
	return e.entries - 1
}

// header writes a header set as its entries' numbers, names in order.
// prev are the numbers in the base table of the entries of the route's
// previous record, which an entry of the same name and values takes.
func (e *recordEncoder) header(h http.Header, prev []uint64) {
	e.routes = appendCount(e.routes, len(h), h == nil)
	var names [16]string
	keys := names[:0]
	for k := range h {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		e.routes = e.uvarint(e.routes, e.entryOf(k, h[k], prev))
	}
}

// entryOf is entry, but for an entry among prev's.
func (e *recordEncoder) entryOf(name string, vals []string, prev []uint64) uint64 {
	for _, i := range prev {
		if en := e.base.entries[i]; en.name == name && (en.vals == nil) == (vals == nil) && slices.Equal(en.vals, vals) {
			return i
		}
	}
	return e.entry(name, vals)
}

// prevEntries are the numbers in the base table of the header entries of
// r's record (its headers' and its Markdown headers'), when r is of the
// base's record; ok is false otherwise.
func (e *recordEncoder) prevEntries(r *manifestRoute) (plain, md []uint64, ok bool) {
	if r == nil || e.base == nil || r.table != e.base {
		return nil, nil, false
	}
	d := recordDecoder{data: r.raw}
	d.string()
	d.string()
	d.string()
	d.string()
	d.uvarint()
	d.uvarint()
	d.byte()
	read := func() []uint64 {
		var out []uint64
		for range max(d.count(), 0) {
			if i := d.uvarint(); i < uint64(len(e.base.entries)) {
				out = append(out, i)
			}
		}
		return out
	}
	plain, md = read(), read()
	return plain, md, !d.failed
}

func (e *recordEncoder) route(f *File) {
	if r := f.kept; r != nil && r.table == e.base && f.Markdown == r.Markdown &&
		f.fingerprint == r.Fingerprint && f.hasFingerprint == r.HasFingerprint && f.mod == r.Mod && f.change == r.Change &&
		f.fpPost == r.FingerprintPost && f.fpPosts == r.FingerprintPosts {
		e.chunk(true, r.rawOff, r.rawOff+len(r.raw))
		return
	}
	start := len(e.routes)
	defer func() { e.chunk(false, start, len(e.routes)) }()
	plain, md := f.headers() // not kept on f: a build is over after its record
	// A route asked again takes the entries its previous record has;
	// only a route new to the record needs the base's entries numbered.
	prevPlain, prevMD, ok := e.prevEntries(f.was)
	if !ok {
		e.index()
	}
	b := e.routes
	for _, s := range [...]string{f.Path, f.Name, f.GzipETag, f.Markdown} {
		b = e.string(b, s)
	}
	b = e.uvarint(b, uint64(f.Status))
	b = e.uvarint(b, uint64(f.Size))
	var flags byte
	if f.Gzip {
		flags |= 1
	}
	if f.hasFingerprint {
		flags |= 2
	}
	if f.fpPosts {
		flags |= 4
	}
	e.routes = append(b, flags)
	e.header(plain, prevPlain)
	e.header(md, prevMD)
	var gz gzipFile
	if f.Gzip {
		gz = f.gz
	}
	b = append(e.routes, f.sum[:]...)
	b = append(b, f.mdSum[:]...)
	b = append(b, gz.sum[:]...)
	b = append(b, f.fingerprint[:]...)
	b = binary.AppendVarint(b, f.mod)
	b = binary.AppendVarint(b, gz.size)
	b = binary.AppendVarint(b, gz.mod)
	b = binary.AppendVarint(b, f.change)
	b = binary.AppendVarint(b, gz.change)
	e.routes = e.string(b, f.fpPost)
}

// encodeManifest is the manifest of site's files, of format, with the
// output's folder times (nil: none recorded).
func encodeManifest(format string, site *Site, dirs folderTimes) []byte {
	return encodeRoutes(site).manifest(format, dirs, site.shape)
}

// encodeRoutes encodes site's routes. Over a previous record whose
// routes were kept (File.kept), its table is carried over, unless too
// much of it is no longer used, and the routes kept are copied.
func encodeRoutes(site *Site) *recordEncoder {
	var base *recordTable
	fresh := 0 // the routes not kept, encoded afresh
	for i := range site.Files {
		if r := site.Files[i].kept; r == nil {
			fresh++
		} else if base == nil {
			base = r.table
		}
	}
	e := &recordEncoder{single: map[[2]string]uint64{}, several: map[string]uint64{}, routes: make([]byte, 0, 320*fresh+1024)}
	if base != nil {
		if garbage := len(base.entries) - base.live; float64(garbage) <= maxGarbage*float64(len(base.entries)) {
			e.seed(base)
		}
	}
	for i := range site.Files {
		e.route(&site.Files[i])
	}
	e.files = len(site.Files)
	return e
}

// manifest is the manifest of the routes encoded, with the folder times
// and the site's shape (nil: none).
func (e *recordEncoder) manifest(format string, dirs folderTimes, shape *[sha256.Size]byte) []byte {
	return slices.Concat(e.parts(format, dirs, shape)...)
}

// parts is manifest in the pieces that make it, in order: the head, the
// header table, the routes and the rest. The table and the routes (15 MB
// at 10,000 posts) are written from where they were encoded, not copied
// into one buffer first.
func (e *recordEncoder) parts(format string, dirs folderTimes, shape *[sha256.Size]byte) [][]byte {
	rest := e.rest(dirs, shape, nil)
	return slices.Concat([][]byte{e.head(format, e.sum(), rest)}, e.payload(), [][]byte{rest})
}

// payload is the table's and the routes' encoding, in its pieces.
func (e *recordEncoder) payload() [][]byte { return append(e.tableBytes(), e.routeBytes()...) }

// sum is the CRC-32C of the table and the routes.
func (e *recordEncoder) sum() uint32 {
	var sum uint32
	for _, b := range e.payload() {
		sum = crc32.Update(sum, castagnoli, b)
	}
	return sum
}

// rest is what the record holds after the routes: the folder times and
// the site's shape.
func (e *recordEncoder) rest(dirs folderTimes, shape *[sha256.Size]byte, cache *fileStamp) []byte {
	rest := appendCount(make([]byte, 0, 32*len(dirs)+64), len(dirs), dirs == nil)
	for _, name := range slices.Sorted(maps.Keys(dirs)) {
		rest = e.string(rest, name)
		rest = binary.AppendVarint(rest, dirs[name])
	}
	if shape != nil {
		rest = append(append(rest, 1), shape[:]...)
	} else {
		rest = append(rest, 0)
	}
	if cache != nil {
		rest = binary.AppendUvarint(binary.AppendUvarint(append(rest, 1), cache.dev), cache.ino)
		for _, n := range []int64{cache.size, cache.mod, cache.change} {
			rest = binary.AppendVarint(rest, n)
		}
	} else {
		rest = append(rest, 0)
	}
	return rest
}

// head is the record's head, before the table: the format, the numbers
// of entries and routes, the payload's length and CRC-32C (sum is the
// table's and the routes').
func (e *recordEncoder) head(format string, sum uint32, rest []byte) []byte {
	size := len(rest)
	for _, b := range e.payload() {
		size += len(b)
	}
	head := make([]byte, 0, len(format)+1+manifestHeadSize)
	head = append(head, format+"\n"...)
	head = binary.LittleEndian.AppendUint64(head, e.entries)
	head = binary.LittleEndian.AppendUint64(head, uint64(e.files))
	head = binary.LittleEndian.AppendUint64(head, uint64(size))
	return binary.LittleEndian.AppendUint32(head, crc32.Update(sum, castagnoli, rest))
}

// A recordWriter writes a record's table and routes into a new file
// beside out's record while the build goes on (startRecord), and the
// rest and the head once the folders' times are known (finish): at
// 10,000 posts the 15 MB were hashed and written after the pruning,
// the build's last step, 10-20 ms.
type recordWriter struct {
	e    *recordEncoder
	tmp  *os.File
	sum  uint32 // the table's and the routes'
	err  error
	done chan struct{}
}

// startRecord encodes site's routes and writes them, with the table,
// into a temporary file beside out's record, of format, on a goroutine
// of its own.
func startRecord(out, format string, site *Site) *recordWriter {
	w := &recordWriter{done: make(chan struct{})}
	go func() {
		defer close(w.done)
		w.e = encodeRoutes(site)
		name := manifestPath(out)
		if w.tmp, w.err = os.CreateTemp(filepath.Dir(name), tmpPrefix(name)); w.err != nil {
			return
		}
		// The head, of a fixed length, is written last, at the start.
		if _, w.err = w.tmp.Seek(int64(len(format)+1+manifestHeadSize), io.SeekStart); w.err != nil {
			return
		}
		// Hashed while written: at 10,000 posts each is some 2-6 ms
		// of 15 MB, at the end of the build.
		sum := make(chan uint32, 1)
		go func() { sum <- w.e.sum() }()
		for _, part := range w.e.payload() {
			if w.err == nil {
				_, w.err = w.tmp.Write(part)
			}
		}
		w.sum = <-sum
	}()
	return w
}

// finish writes the rest of the record and its head (of the format
// given to startRecord), and renames it into place as out's record.
func (w *recordWriter) finish(out, format string, dirs folderTimes, shape *[sha256.Size]byte, cache *fileStamp) error {
	<-w.done
	err := w.err
	if err == nil {
		rest := w.e.rest(dirs, shape, cache)
		if _, err = w.tmp.Write(rest); err == nil {
			_, err = w.tmp.WriteAt(w.e.head(format, w.sum, rest), 0)
		}
	}
	if w.tmp == nil {
		return fmt.Errorf("export: manifest: %w", err)
	}
	if cerr := w.tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(w.tmp.Name(), manifestPath(out))
	}
	if err != nil {
		os.Remove(w.tmp.Name())
		return fmt.Errorf("export: manifest: %w", err)
	}
	return nil
}

// abort removes the record's temporary file.
func (w *recordWriter) abort() {
	<-w.done
	if w.tmp != nil {
		w.tmp.Close()
		os.Remove(w.tmp.Name())
	}
}

// writeManifest writes the manifest of out (data, from encodeManifest,
// or its parts) in one rename.
func writeManifest(out string, data ...[]byte) error {
	name := manifestPath(out)
	tmp, err := os.CreateTemp(filepath.Dir(name), tmpPrefix(name))
	if err != nil {
		return fmt.Errorf("export: manifest: %w", err)
	}
	for _, part := range data {
		if err == nil {
			_, err = tmp.Write(part)
		}
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
// file's size, modification and status-change times (its ETag is
// File.GzipETag).
type gzipFile struct {
	sum               [sha256.Size]byte
	size, mod, change int64
}
