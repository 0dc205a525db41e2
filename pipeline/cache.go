package pipeline

import (
	"bufio"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"os"
	"slices"
	"sync/atomic"
	"time"

	"folio/internal/mapfile"
)

// # The parse cache
//
// Reading a site parses every content file: at 10,000 posts, most of a
// build that follows a one-post edit. A Cache holds the posts an earlier
// build parsed, each under its file's key with the SHA-256 of the file's
// bytes. A file whose bytes hash as the cached one's (and, for a bundle,
// whose files are named as then) is taken from the cache instead of
// parsed; any other file is parsed as ever. So the cache is keyed by
// content, never by a file's time or size: a file edited within the same
// second, to the same size, hashes otherwise and is parsed again.
//
// What else a parse depends on (the program, the configuration, the
// site's templates that make descriptions, the options) is the cache's
// key, given by whoever reads and writes it (folio build: the host): a
// cache of another key is not read. Only posts that parsed without a
// problem or a warning are kept: a file with one is parsed each time, so
// what it says, and where, is said as before. Which posts are visible is
// never cached: it is decided for each snapshot's instant, as ever, so a
// post whose publish date has come appears.
//
// Reading 10,000 files to hash them still cost a build 0.2 s, so an
// entry also keeps its file's stamp (fileStamp): its size, its
// modification and status-change times, its inode. A file whose stamp is
// the cached one is not read at all. The status-change time (ctime) is
// set by the system at every write, rename or change of the times, and
// no one can set it back (touch sets it to now), so a file with the same
// stamp has not been written since. A change within the same tick of the
// file system's clock would leave the stamp as it was, so a stamp taken
// less than racyWindow before the build began is not kept (the file is
// read and hashed next time), as git does with its index. Where the
// system has no such time, every file is read and hashed.
//
// The cache is one file: a header (the format and the key), the entries
// (cachecodec.go), a trailer (their number, length and CRC-32C).
// A file that is not such a cache (another format or key, cut short,
// corrupt) is no cache: every file is parsed, and nothing is said. folio
// build does not compute the CRC of a cache file its previous build read
// whole and left in place, when the file's stamp is still the one that
// build recorded (CacheFile.Map's whole): the file was not written since.

// cacheMagic names the format; a file that does not start with it is
// no cache.
const cacheMagic = "folio-parse-cache 5\n"

// MaxCacheSize bounds the cache read (and written): far more than the
// posts of any site within the limits take.
const MaxCacheSize = 4 << 30

// racyWindow is how long before a build a file's status must have last
// changed for its stamp to be kept: more than the coarsest clock of a
// file system in use (FAT's 2 s). (A variable for tests.)
var racyWindow = 3 * time.Second

// A fileStamp is what the system says of a file without reading it.
type fileStamp struct {
	size, mod, change int64
	ino, dev          uint64
}

// A Cache is the posts an earlier build parsed, for a build of the same
// key (Options.Cache). The zero value and nil are empty caches.
type Cache struct {
	key [sha256.Size]byte
	buf []byte // the file's bytes, which the posts' strings point into
	// at is each entry's offset and length in buf, by unit key.
	at map[string]span
	// began is when the build that uses it began to read the site
	// (stamps of files changed since are not kept).
	began time.Time
	// posts are where each entry's post is encoded in buf, and its body
	// in that (FieldsDigest), by the entry's number (span.i): noted as
	// the entry is decoded, zero until then.
	posts []postSpan
	// file is what the system said of the cache's file when it was
	// opened, for a cache read from a file found whole.
	file os.FileInfo
}

// A span is where an entry is in the cache's buffer, and its number.
type span struct{ off, n, i int }

// A postSpan is where a post's encoding is in the cache's buffer: from
// from to end, its body from body[0] to body[1].
type postSpan struct {
	from, end int
	body      [2]int
}

// NewCache is an empty cache of key: Build then parses every file, and
// keeps what a cache of key needs (Snapshot.WriteCache).
func NewCache(key [sha256.Size]byte) *Cache { return &Cache{key: key} }

// ReadCache reads the cache file name made for key. Anything but a good
// cache of key (no file, another key or format, a corrupt file) is an
// empty cache of key: nothing is an error.
func ReadCache(name string, key [sha256.Size]byte) *Cache {
	f := OpenCache(name, key)
	if f == nil {
		return NewCache(key)
	}
	return f.Read()
}

// A CacheFile is a cache file whose header names the key it was opened
// for: what OpenCache learns at once, so that a build knows before it
// walks the content whether a cache will be read (a first start, with
// none, needs no file's stamp from the walk: its reads give them).
type CacheFile struct {
	f    *os.File
	info os.FileInfo
	size int64
	key  [sha256.Size]byte
}

// Info is what the system said of the cache file when it was opened:
// the file read, when it is read.
func (cf *CacheFile) Info() os.FileInfo { return cf.info }

// OpenCache opens the cache file name when its header says it is a cache
// of key and its size is one a cache may have; nil otherwise.
func OpenCache(name string, key [sha256.Size]byte) *CacheFile {
	f, err := os.Open(name)
	if err != nil {
		return nil
	}
	info, err := f.Stat()
	head := make([]byte, cacheHead)
	if err != nil || info.Size() < int64(cacheHead+cacheTrailer) || info.Size() > MaxCacheSize {
		f.Close()
		return nil
	}
	if _, err := f.ReadAt(head, 0); err != nil || string(head[:len(cacheMagic)]) != cacheMagic ||
		[sha256.Size]byte(head[len(cacheMagic):]) != key {
		f.Close()
		return nil
	}
	return &CacheFile{f: f, info: info, size: info.Size(), key: key}
}

// Read reads the cache and closes the file: an empty cache of its key
// when the file turns out not to be a good one (cut, corrupt).
func (cf *CacheFile) Read() *Cache {
	defer cf.f.Close()
	file := make([]byte, cf.size)
	if _, err := cf.f.ReadAt(file, 0); err != nil {
		return NewCache(cf.key)
	}
	return cf.cache(file, false)
}

// Map is Read for a process that ends with the build it reads the cache
// for (folio build): the file's pages are mapped into memory, read-only,
// not copied, and stay mapped until the process ends (the posts' strings
// point into them). Reading 52 MB at 10,000 posts cost a build after a
// one-post edit 30-60 ms (the copy, and a page fault for each 4 KiB of
// the buffer), mapping them 4 ms. A cache file is only ever replaced
// (Staged.AddFileFrom renames a new file over it), never written in
// place, so the pages mapped stay the ones checked; a file cut short by
// another program meanwhile would end the process (SIGBUS), as a kill
// would, which a build survives (the previous output stands, or the
// record is gone and the next build is cold). Where the system cannot
// map it, it is read.
//
// whole says the file is one a build read before and found whole, as
// the caller knows from its stamp (Info: its size, modification and
// status-change times and inode, which any write changes): its CRC-32C
// is not computed again (over 52 MB at 10,000 posts, 8 ms of a build
// after a one-post edit, in its busiest stretch).
func (cf *CacheFile) Map(whole bool) *Cache {
	file, ok := mapfile.Map(cf.f, cf.size)
	if !ok {
		return cf.Read()
	}
	cf.f.Close()
	return cf.cache(file, whole)
}

// cache is the cache of the file's bytes, their CRC-32C not computed
// when the file is known whole; an empty cache of its key when they are
// not a good one.
func (cf *CacheFile) cache(file []byte, whole bool) *Cache {
	c := NewCache(cf.key)
	if len(file) < cacheHead+cacheTrailer || string(file[:len(cacheMagic)]) != cacheMagic ||
		[sha256.Size]byte(file[len(cacheMagic):cacheHead]) != cf.key {
		return c
	}
	buf, tail := file[cacheHead:len(file)-cacheTrailer], file[len(file)-cacheTrailer:]
	count, size, crc := binary.LittleEndian.Uint64(tail), binary.LittleEndian.Uint64(tail[8:]), binary.LittleEndian.Uint32(tail[16:])
	if size != uint64(len(buf)) || count > size {
		return c
	}
	if !whole {
		cacheChecksums.Add(1)
		if crc32.Checksum(buf, castagnoli) != crc {
			return c
		}
	}
	at, ok := indexEntries(buf, int(count))
	if !ok {
		return c
	}
	c.buf, c.at, c.posts, c.file = buf, at, make([]postSpan, count), cf.info
	return c
}

// cacheChecksums counts the caches whose CRC-32C was computed.
var cacheChecksums atomic.Int64

// CacheChecksums is how many parse caches this process read checking
// their CRC-32C: a build that takes a cache known whole (Map) adds none,
// which tests observe.
func CacheChecksums() int64 { return cacheChecksums.Load() }

// empty reports whether the cache holds no post: no file's stamp or sum
// is looked up in it.
func (c *Cache) empty() bool { return c == nil || len(c.at) == 0 }

// has reports whether the cache holds an entry for the unit key.
func (c *Cache) has(key string) bool {
	if c.empty() {
		return false
	}
	_, ok := c.at[key]
	return ok
}

// The cache file's header (its format and key) and trailer (the number
// of entries, their length and CRC-32C): the entries are written as they
// are made, never held whole in memory.
const (
	cacheHead    = len(cacheMagic) + sha256.Size
	cacheTrailer = 8 + 8 + 4
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// indexEntries finds each entry of buf: its unit key, then its length.
func indexEntries(buf []byte, count int) (map[string]span, bool) {
	at := make(map[string]span, count)
	d := decoder{buf: buf}
	for i := range count {
		key := d.string()
		n := d.uvarint()
		if d.failed || n > uint64(len(buf)-d.off) {
			return nil, false
		}
		if _, dup := at[key]; dup {
			return nil, false
		}
		at[key] = span{d.off, int(n), i}
		d.off += int(n)
	}
	return at, d.off == len(buf)
}

// post is the cached post of the unit key, when its file's bytes hashed
// sum (or, sum nil, when its file's stamp is the one given and was kept)
// and its bundle's lists are those given; nil: read or parse the file.
// fileSum is the cached file's hash.
func (c *Cache) post(key string, sum *[sha256.Size]byte, stamp fileStamp, resources, contents []string, cfg *Config) (p *Post, fileSum [sha256.Size]byte) {
	if c == nil || c.at == nil {
		return nil, fileSum
	}
	at, ok := c.at[key]
	if !ok {
		return nil, fileSum
	}
	d := decoder{buf: c.buf[:at.off+at.n], off: at.off, loc: cfg.Location}
	b := d.bytes(sha256.Size)
	cached := d.stamp()
	if d.failed {
		return nil, fileSum
	}
	from := d.off // the post's encoding
	fileSum = [sha256.Size]byte(b)
	switch {
	case sum != nil && *sum != fileSum:
		return nil, fileSum
	case sum == nil && (cached == fileStamp{} || cached != stamp):
		return nil, fileSum
	}
	p = d.post()
	if d.failed || p.File != key || !slices.Equal(p.Resources, resources) || !slices.Equal(p.ContentFiles, contents) {
		return nil, fileSum
	}
	c.posts[at.i] = postSpan{from: from, end: d.off, body: d.body}
	return p, fileSum
}

// FieldsDigest identifies every field of p but its body (Body, BodyLine)
// and its per-process Hash: two posts of one FieldsDigest differ at most
// in their bodies. It is the SHA-256 of the post's encoding in the parse
// cache (cachecodec.go), the body left out, which holds every field
// (TestCacheRoundTrip) and writes maps in the order of their keys: for a
// post taken from the cache, of its entry's bytes as read (a digest of
// 10,000 posts' fields through reflection cost a build after a one-post
// edit 0.06 s). ok is false for a post the cache cannot hold (a value it
// cannot encode, a warning's post).
func (s *Snapshot) FieldsDigest(p *Post) (sum [sha256.Size]byte, ok bool) {
	if c := s.opts.Cache; c != nil && c.at != nil {
		if u, _ := s.units.Get(p.File); u != nil && u.post == p && u.cached {
			// Decoded from the entry of its file (Cache.post).
			if at, ok := c.at[p.File]; ok && c.posts[at.i].end > 0 {
				ps := c.posts[at.i]
				return fieldsSum(c.buf[ps.from:ps.body[0]], c.buf[ps.body[1]:ps.end]), true
			}
		}
	}
	e := encoder{loc: s.config.Location}
	e.post(p)
	if e.failed {
		return sum, false
	}
	return fieldsSum(e.buf[:e.body[0]], e.buf[e.body[1]:]), true
}

// fieldsSum is the digest of a post's encoding without its body: the
// part before it and the part after it.
func fieldsSum(before, after []byte) (sum [sha256.Size]byte) {
	h := sha256.New()
	h.Write(before)
	h.Write(after)
	h.Sum(sum[:0])
	return sum
}

// CacheChanged reports whether the cache the snapshot would write
// (WriteCache) differs from the one it was built with: false when no
// cache was given, or every post it may hold came from it, with the
// stamp it keeps, and it holds no other.
func (s *Snapshot) CacheChanged() bool {
	stale, _ := s.CacheStale()
	return stale > 0
}

// CacheStale counts what the cache the snapshot would write (WriteCache)
// changes of the one it was built with: the posts it would hold that did
// not come from it with the stamp it keeps (parsed, or read and hashed),
// and the entries it holds for files gone; and how many entries it would
// hold. Left as it is, the cache costs the next build that many files
// read and hashed, and the parsed ones parsed again.
func (s *Snapshot) CacheStale() (stale, entries int) {
	c := s.opts.Cache
	if c == nil {
		return 0, 0
	}
	held := 0 // of the cache's entries
	for k, u := range s.units.All {
		if !u.cacheable {
			continue
		}
		entries++
		at, ok := c.at[k]
		if ok {
			held++
		}
		if !ok || !u.cached || u.stamp != c.stampAt(at) {
			stale++
		}
	}
	return stale + len(c.at) - held, entries
}

// WriteCache writes the cache file of the snapshot's parsed posts to w:
// every post that parsed without a problem or a warning, under the key
// of the cache the snapshot was built with (Options.Cache, an empty one
// of the key for a first build), one entry at a time.
func (s *Snapshot) WriteCache(w io.Writer) error {
	c := s.opts.Cache
	if c == nil {
		return errors.New("pipeline: the snapshot was built without a cache")
	}
	keys := make([]string, 0, s.units.Len())
	for k, u := range s.units.All {
		if u.cacheable {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	// The files read on a first start are hashed now, on every core.
	sums := make([][sha256.Size]byte, len(keys))
	inParallel(len(keys), func(lo, hi int) {
		for i := lo; i < hi; i++ {
			if u := unitAt(s.units, keys[i]); u.src != nil {
				sums[i] = u.fileSum()
			}
		}
	})
	bw := bufio.NewWriterSize(w, 256<<10)
	bw.WriteString(cacheMagic)
	bw.Write(c.key[:])
	sum := crc32.New(castagnoli)
	out := io.MultiWriter(bw, sum)
	e := encoder{loc: s.config.Location}
	entry := encoder{loc: s.config.Location}
	var count, size uint64
	for i, k := range keys {
		u := unitAt(s.units, k)
		fileSum := u.sum
		if u.src != nil {
			fileSum = sums[i]
		}
		var body []byte
		if at, ok := c.at[k]; ok && u.cached && u.stamp == c.stampAt(at) {
			body = c.buf[at.off : at.off+at.n] // taken from the cache: copied as it was
		} else {
			entry.buf, entry.failed = entry.buf[:0], false
			entry.raw(fileSum[:])
			entry.stamp(u.stamp)
			entry.post(u.post)
			if entry.failed {
				continue // a value the cache cannot hold: parsed each time
			}
			body = entry.buf
		}
		e.buf = e.buf[:0]
		e.string(k)
		e.uvarint(uint64(len(body)))
		out.Write(e.buf)
		out.Write(body)
		count++
		size += uint64(len(e.buf) + len(body))
	}
	tail := binary.LittleEndian.AppendUint64(nil, count)
	tail = binary.LittleEndian.AppendUint64(tail, size)
	tail = binary.LittleEndian.AppendUint32(tail, sum.Sum32())
	bw.Write(tail)
	return bw.Flush()
}

// stampAt is the stamp kept in the entry at.
func (c *Cache) stampAt(at span) fileStamp {
	d := decoder{buf: c.buf[:at.off+at.n], off: at.off + sha256.Size}
	return d.stamp()
}

// keep is the stamp to keep of a file read in this build: none when its
// status changed less than racyWindow before the build began.
func (c *Cache) keep(stamp fileStamp, ok bool) fileStamp {
	if !ok || c.began.IsZero() || stamp.change >= c.began.Add(-racyWindow).UnixNano() {
		return fileStamp{}
	}
	return stamp
}

// CacheFile is what the system said of the parse cache's file this
// snapshot's build read, when it was opened (before it was read), and
// the file was found whole; nil when no cache file was read whole.
func (s *Snapshot) CacheFile() os.FileInfo {
	if c := s.opts.Cache; c != nil {
		return c.file
	}
	return nil
}

// CacheCounts are how many of the snapshot's content files were parsed
// and how many taken from its cache.
func (s *Snapshot) CacheCounts() (parsed, cached int) {
	for _, u := range s.units.All {
		if u.cached {
			cached++
		} else {
			parsed++
		}
	}
	return parsed, cached
}

// SourceSum says what p was parsed from: the key of the snapshot's parse
// cache (the program, the configuration, what else a parse depends on)
// and the bytes and name of p's file, hashed. Two posts of one SourceSum
// parsed alike, body and all: the parse cache gives one for the other.
// ok is false without a cache, or for a post whose file's bytes were not
// hashed (a bundle with a folder that could not be read).
func (s *Snapshot) SourceSum(p *Post) (sum [sha256.Size]byte, ok bool) {
	key, fileSum, ok := s.SourceOf(p)
	if !ok {
		return sum, false
	}
	h := sha256.New()
	h.Write(key[:])
	h.Write(fileSum[:])
	io.WriteString(h, p.File)
	h.Sum(sum[:0])
	return sum, true
}

// SourceOf is what SourceSum is made of besides p's file's name: the
// key of the snapshot's parse cache and the SHA-256 of the file's bytes,
// for a caller that hashes them with more.
func (s *Snapshot) SourceOf(p *Post) (key, fileSum [sha256.Size]byte, ok bool) {
	c := s.opts.Cache
	if c == nil {
		return key, fileSum, false
	}
	u, _ := s.units.Get(p.File)
	if u == nil || u.post != p {
		return key, fileSum, false
	}
	if fileSum = u.fileSum(); fileSum == ([sha256.Size]byte{}) {
		return key, fileSum, false
	}
	return c.key, fileSum, true
}

// PostOfFile is the post of the content file (Post.File), nil when the
// snapshot has none.
func (s *Snapshot) PostOfFile(file string) *Post {
	if u, _ := s.units.Get(file); u != nil {
		return u.post
	}
	return nil
}

// cacheSlack is the share of a cache's entries (one in cacheSlack) that
// may be stale before a build writes it again (CacheWorthWriting).
const cacheSlack = 64

// CacheWorthWriting reports whether a build that keeps its cache from
// one run to the next should write it again: when at least one of its
// entries in cacheSlack would change (CacheStale). Writing it (52 MB at
// 10,000 posts) cost a build after a one-post edit 0.05-0.1 s; a stale
// entry costs each later build its file read and hashed, and parsed when
// its bytes changed, until enough have gone stale that it is written.
func (s *Snapshot) CacheWorthWriting() bool {
	stale, entries := s.CacheStale()
	return stale > 0 && stale*cacheSlack >= entries
}
