package pipeline

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"hash/crc32"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"
	"time"

	"folio/internal/corpus"
)

// fillPost sets every exported field of a Post (and of what it holds)
// to a value that is not zero, so that a field the cache leaves out
// fails TestCacheRoundTrip.
func fillPost(t testing.TB, loc *time.Location) *Post {
	t.Helper()
	n := 0
	var fill func(v reflect.Value, depth int)
	fill = func(v reflect.Value, depth int) {
		n++
		switch v.Kind() {
		case reflect.String:
			v.SetString("s" + strings.Repeat("x", n%5))
		case reflect.Bool:
			v.SetBool(true)
		case reflect.Int, reflect.Int64:
			v.SetInt(int64(-n * 1000))
		case reflect.Uint8, reflect.Uint64:
			v.SetUint(uint64(n%2 + 1))
		case reflect.Slice:
			s := reflect.MakeSlice(v.Type(), 2, 2)
			if depth < 3 || v.Type().Elem().Kind() != reflect.Struct {
				for i := range 2 {
					fill(s.Index(i), depth+1)
				}
			}
			v.Set(s)
		case reflect.Map:
			m := reflect.MakeMap(v.Type())
			for i := range 2 {
				k := reflect.New(v.Type().Key()).Elem()
				fill(k, depth+1)
				k.SetString(k.String() + string(rune('a'+i)))
				e := reflect.New(v.Type().Elem()).Elem()
				fill(e, depth+1)
				m.SetMapIndex(k, e)
			}
			v.Set(m)
		case reflect.Struct:
			if v.Type() == reflect.TypeFor[time.Time]() {
				v.Set(reflect.ValueOf(time.Date(2020, 3, 4, 5, 6, 7, 8, loc)))
				return
			}
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i), depth+1)
				}
			}
		case reflect.Interface:
			v.Set(reflect.ValueOf(frontMatterValues(loc)))
		case reflect.Pointer:
			if v.Type().Elem().Kind() != reflect.Struct {
				t.Fatalf("fillPost: a pointer to %s: teach the cache (cachecodec.go) and this test", v.Type().Elem())
			}
			e := reflect.New(v.Type().Elem())
			fill(e.Elem(), depth+1)
			v.Set(e)
		default:
			t.Fatalf("fillPost: a field of kind %s: teach the cache (cachecodec.go) and this test", v.Kind())
		}
	}
	p := &Post{}
	fill(reflect.ValueOf(p).Elem(), 0)
	p.Hash = 0 // per process: set from the file when read
	return p
}

// frontMatterValues holds every type of value the cache keeps, nil and
// empty ones apart.
func frontMatterValues(loc *time.Location) map[string]any {
	return map[string]any{
		"string": "text", "empty": "", "bool": true, "int": -7, "int64": int64(1) << 40, "uint64": uint64(1) << 63,
		"float": 2.5, "nil": nil,
		"utc":   time.Date(2024, 1, 2, 3, 4, 5, 6, time.UTC),
		"site":  time.Date(2024, 7, 2, 3, 4, 5, 0, loc),
		"fixed": time.Date(2024, 7, 2, 3, 4, 5, 0, time.FixedZone("", -5*3600)),
		"zero":  time.Time{},
		"list":  []any{"a", 1, []any{}, map[string]any{"deep": []any{nil}}},
		"nils":  []any(nil), "nilmap": map[string]any(nil), "emptymap": map[string]any{},
		"strings": []string{"x", ""}, "nostrings": []string(nil),
		"stringmap": map[string]string{"k": "v"},
	}
}

func TestCacheRoundTrip(t *testing.T) {
	loc := paris(t)
	for _, p := range []*Post{fillPost(t, loc), {PageMeta: &PageMeta{}}, {File: "blog/x.md", Body: []Node{}, Params: map[string]any{}, PageMeta: &PageMeta{Terms: map[string][]string{}}}} {
		e := encoder{loc: loc}
		e.post(p)
		if e.failed {
			t.Fatalf("the encoder refused %+v", p)
		}
		d := decoder{buf: e.buf, loc: loc}
		got := d.post()
		if d.failed || d.off != len(e.buf) {
			t.Fatalf("decoding failed at %d of %d bytes", d.off, len(e.buf))
		}
		// The front matter stays encoded until asked for (compact.go).
		got.Params, got.frontMatter, got.loc = got.FrontMatter(), "", nil
		if !reflect.DeepEqual(got, p) {
			t.Errorf("decoded post differs:\n got %#v\nwant %#v", got, p)
		}
	}
}

// TestCacheRefusesValues: a post holding a value the cache cannot name
// again is not cached (it is parsed each time).
func TestCacheRefusesValues(t *testing.T) {
	named, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Fatal(err)
	}
	for name, v := range map[string]any{
		"a type the decoders do not make": struct{ X int }{1},
		"an int32":                        int32(3),
		"a time in another named zone":    time.Date(2024, 1, 1, 0, 0, 0, 0, named),
		"a time in the local zone":        time.Date(2024, 1, 1, 0, 0, 0, 0, time.Local),
		"a list holding one":              []any{"ok", float32(1)},
	} {
		e := encoder{loc: time.UTC}
		e.post(&Post{Params: map[string]any{"x": v}})
		if !e.failed {
			t.Errorf("%s: cached", name)
		}
	}
	e := encoder{loc: time.UTC}
	e.post(&Post{noDate: 3})
	if !e.failed {
		t.Error("a post with a warning's line: cached")
	}
}

// cacheSite is a small site with posts of every kind the cache meets: a
// page, a bundle, a draft, a post in the future, one without a date (a
// warning: never cached), one that fails (never cached).
func cacheSite() fstest.MapFS {
	return mapFS(map[string]string{
		"blog/a.md":            post("title: A", "tags: [x, y]", "description: Given"),
		"blog/b.md":            "---\ntitle: B\ndescription: Bee\ndate: 2026-02-03T04:05:06+03:00\n---\nA {{< figure src=\"x.png\" >}} and ![i](img.png).\n\n<!--more-->\nMore.\n",
		"blog/trip/index.md":   post("title: Trip", "date: 2026-01-05"),
		"blog/trip/photo.jpg":  "jpeg",
		"blog/draft.md":        post("title: D", "draft: true"),
		"blog/future.md":       post("title: F", "date: 2030-01-01T00:00:00Z"),
		"blog/nodate.md":       "---\ntitle: N\n---\nNo date.\n",
		"blog/broken.md":       "---\ntitle: [\n---\nBad.\n",
		"blog/_index.md":       "---\ntitle: Blog\n---\n",
		"blog/2025/deep.md":    post("title: Deep", "categories: [c]"),
		"blog/described.md":    "---\ntitle: S\ndate: 2026-01-01T00:00:00Z\n---\nA summary made by {{< sc >}}.\n",
		"blog/describedoff.md": "---\ntitle: S2\ndate: 2026-01-01T00:00:00Z\n---\nA summary made plainly.\n",
	})
}

// TestBuildWithCache: a snapshot built from a cache holds the posts a
// parse makes; a file whose bytes changed (even to the same size) is
// parsed again; files with problems or warnings are parsed each time
// and still say where.
func TestBuildWithCache(t *testing.T) {
	fsys := cacheSite()
	key := sha256.Sum256([]byte("key"))
	opts := Options{Root: "content", Describe: func(p *Post) string { return "described " + p.Title }}
	first := build(t, fsys, Options{Root: opts.Root, Describe: opts.Describe, Cache: NewCache(key)}, testNow)
	file, ok := encodeCache(t, first)
	if !ok {
		t.Fatal("no cache to write after a first build")
	}
	name := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(name, file, 0o644); err != nil {
		t.Fatal(err)
	}
	cold := build(t, fsys, opts, testNow)
	// Mapped into memory (folio build) as read.
	mapped := build(t, fsys, Options{Root: opts.Root, Describe: opts.Describe, Cache: mapCache(name, key)}, testNow)
	opts.Cache = ReadCache(name, key)
	warm := build(t, fsys, opts, testNow)
	for _, s := range []*Snapshot{warm, mapped} {
		parsed, cached := s.CacheCounts()
		// Parsed each time: broken (a problem), nodate (a warning),
		// described (a description made by a shortcode).
		if parsed != 3 || cached != 8 {
			t.Errorf("parsed %d, cached %d; want 3 and 8", parsed, cached)
		}
		sameSnapshot(t, s, cold)
	}
	if _, ok := encodeCache(t, warm); ok {
		t.Error("a cache to write when nothing changed")
	}

	// The same size, other bytes; and a file added.
	fsys["blog/a.md"] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys["blog/a.md"].Data), "Body.", "Bodz.", 1))}
	fsys["blog/new.md"] = &fstest.MapFile{Data: []byte(post("title: New"))}
	cold = build(t, fsys, Options{Root: opts.Root, Describe: opts.Describe}, testNow)
	warm = build(t, fsys, opts, testNow)
	if parsed, cached := warm.CacheCounts(); parsed != 5 || cached != 7 {
		t.Errorf("after an edit: parsed %d, cached %d; want 5 and 7", parsed, cached)
	}
	sameSnapshot(t, warm, cold)

	// Another instant: the post in the future is published, from the cache.
	later := time.Date(2031, 1, 1, 0, 0, 0, 0, time.UTC)
	sameSnapshot(t, build(t, fsys, opts, later), build(t, fsys, Options{Root: opts.Root, Describe: opts.Describe}, later))
	if !slices.Contains(slugs(build(t, fsys, opts, later).Posts()), "future") {
		t.Error("the scheduled post is not published once its date has passed")
	}
}

// sameSnapshot fails unless a and b hold the same posts and problems.
func sameSnapshot(t *testing.T, a, b *Snapshot) {
	t.Helper()
	if !reflect.DeepEqual(a.Problems(), b.Problems()) {
		t.Errorf("problems differ:\n%v\n%v", a.Problems(), b.Problems())
	}
	all := func(s *Snapshot) []Post {
		var out []Post
		for _, p := range s.AllPosts() {
			c := *p
			c.Hash = 0
			out = append(out, c)
		}
		return out
	}
	pa, pb := all(a), all(b)
	if len(pa) != len(pb) {
		t.Fatalf("%d posts, want %d", len(pa), len(pb))
	}
	for i := range pa {
		if !reflect.DeepEqual(pa[i], pb[i]) {
			t.Errorf("post %s differs:\n got %#v\nwant %#v", pb[i].File, pa[i], pb[i])
		}
	}
	if !slices.Equal(slugs(a.Posts()), slugs(b.Posts())) {
		t.Errorf("visible posts %v, want %v", slugs(a.Posts()), slugs(b.Posts()))
	}
}

// mapCache is ReadCache with the file mapped (CacheFile.Map).
func mapCache(name string, key [sha256.Size]byte) *Cache {
	f := OpenCache(name, key)
	if f == nil {
		return NewCache(key)
	}
	return f.Map(false)
}

// TestReadCacheRefuses: no file, another key, another format, a file cut
// short or corrupt, is an empty cache, never an error nor a panic, read
// or mapped.
func TestReadCacheRefuses(t *testing.T) {
	for name, read := range map[string]func(string, [sha256.Size]byte) *Cache{"read": ReadCache, "mapped": mapCache} {
		t.Run(name, func(t *testing.T) { testReadCacheRefuses(t, read) })
	}
}

func testReadCacheRefuses(t *testing.T, readCache func(string, [sha256.Size]byte) *Cache) {
	fsys := cacheSite()
	key := sha256.Sum256([]byte("key"))
	s := build(t, fsys, Options{Cache: NewCache(key)}, testNow)
	good, _ := encodeCache(t, s)
	dir := t.TempDir()
	head := cacheHead
	flipped := slices.Clone(good)
	flipped[len(flipped)/2] ^= 0x40
	cases := map[string][]byte{
		"empty":        {},
		"foreign":      []byte("not a cache at all, just some text of some length, long enough for a header of a cache..."),
		"cut short":    good[:len(good)-10],
		"header only":  good[:head],
		"no trailer":   good[:len(good)-cacheTrailer],
		"longer":       append(slices.Clone(good), 0),
		"a byte wrong": flipped,
		"another format": func() []byte {
			b := slices.Clone(good)
			b[len(cacheMagic)-2] = '9'
			return b
		}(),
	}
	for name, data := range cases {
		p := filepath.Join(dir, strings.ReplaceAll(name, " ", "-"))
		os.WriteFile(p, data, 0o644)
		if c := readCache(p, key); c.at != nil {
			t.Errorf("%s: read as a cache of %d entries", name, len(c.at))
		}
	}
	p := filepath.Join(dir, "good")
	os.WriteFile(p, good, 0o644)
	if c := readCache(p, key); len(c.at) == 0 {
		t.Error("a good cache is not read")
	}
	if c := readCache(p, sha256.Sum256([]byte("other key"))); c.at != nil {
		t.Error("a cache of another key is read")
	}
	if c := readCache(filepath.Join(dir, "none"), key); c.at != nil {
		t.Error("no file is a cache")
	}
}

// FuzzCacheEntry: whatever the bytes of an entry (a corrupt file whose
// CRC happens to hold), decoding ends, without a panic.
func FuzzCacheEntry(f *testing.F) {
	e := encoder{loc: time.UTC}
	e.post(fillPost(f, time.UTC))
	f.Add(e.buf)
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	f.Fuzz(func(t *testing.T, b []byte) {
		d := decoder{buf: b, loc: time.UTC}
		d.post()
		if d.off > len(b) {
			t.Fatalf("read past the end: %d of %d", d.off, len(b))
		}
	})
}

// TestCacheEntriesCut: every prefix of an entry, and of a whole cache
// with its CRC made to hold, fails cleanly.
func TestCacheEntriesCut(t *testing.T) {
	e := encoder{loc: time.UTC}
	e.post(fillPost(t, time.UTC))
	for n := range len(e.buf) {
		d := decoder{buf: e.buf[:n], loc: time.UTC}
		d.post()
		if !d.failed {
			t.Fatalf("a cut of %d of %d bytes decoded", n, len(e.buf))
		}
	}
	fsys := corpus.MapFS(5, 1)
	key := sha256.Sum256(nil)
	s, err := Build(fsys, DefaultConfig(), Options{Cache: NewCache(key)}, testNow)
	if err != nil {
		t.Fatal(err)
	}
	good, _ := encodeCache(t, s)
	count := binary.LittleEndian.Uint64(good[len(good)-cacheTrailer:])
	dir := t.TempDir()
	entries := len(good) - cacheHead - cacheTrailer
	for _, n := range []int{1, 7, 100, entries / 2, entries - 1} {
		body := slices.Clone(good[cacheHead : cacheHead+entries-n])
		b := slices.Clone(good[:cacheHead])
		b = append(b, body...)
		b = binary.LittleEndian.AppendUint64(b, count)
		b = binary.LittleEndian.AppendUint64(b, uint64(len(body)))
		b = binary.LittleEndian.AppendUint32(b, crc32.Checksum(body, castagnoli))
		p := filepath.Join(dir, "cut")
		os.WriteFile(p, b, 0o644)
		c := ReadCache(p, key)
		for k := range c.at { // what indexes may still fail as an entry
			c.post(k, &[sha256.Size]byte{}, fileStamp{}, nil, nil, DefaultConfig())
			c.post(k, nil, fileStamp{size: 1}, nil, nil, DefaultConfig())
		}
	}
}

// countFS counts the Markdown files opened (read) through it.
type countFS struct {
	fs.FS
	opened []string
	mu     sync.Mutex
}

func (c *countFS) Open(name string) (fs.File, error) {
	if strings.HasSuffix(name, ".md") {
		c.mu.Lock()
		c.opened = append(c.opened, name)
		c.mu.Unlock()
	}
	return c.FS.Open(name)
}

func (c *countFS) Stat(name string) (fs.FileInfo, error)      { return fs.Stat(c.FS, name) }
func (c *countFS) ReadDir(name string) ([]fs.DirEntry, error) { return fs.ReadDir(c.FS, name) }
func (c *countFS) reads() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Sorted(slices.Values(c.opened))
}
func (c *countFS) reset() { c.mu.Lock(); c.opened = nil; c.mu.Unlock() }

// stampedDir is a temporary folder whose files have stamps (stampOf);
// the test is skipped where they have none.
func stampedDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	os.WriteFile(probe, nil, 0o644)
	if info, err := os.Stat(probe); err != nil {
		t.Fatal(err)
	} else if _, ok := stampOf(info); !ok {
		t.Skip("no file stamps here: every file is read")
	}
	os.Remove(probe)
	return dir
}

// writeFiles writes each file (by slash path) under dir with its text.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		writeFile(t, filepath.Join(dir, filepath.FromSlash(name)), text)
	}
}

// TestCacheTrustsStamps: a file whose stamp (size, times, inode) is the
// cached one is not read at all; one rewritten to the same size with its
// modification time put back is (its status-change time moved); one
// changed too short a while before the cache was made is read and hashed.
func TestCacheTrustsStamps(t *testing.T) {
	dir := stampedDir(t)
	// Whether a stamp is too recent to keep is set per step, not left
	// to how long a step took: racyWindow 0 trusts every stamp taken
	// before the build began, an hour none taken since.
	defer func(w time.Duration) { racyWindow = w }(racyWindow)
	racyWindow = 0
	writeFiles(t, dir, map[string]string{
		"blog/a.md": post("title: A"), "blog/b.md": post("title: B"), "blog/trip/index.md": post("title: Trip"), "blog/trip/p.jpg": "jpg",
	})
	fsys := &countFS{FS: os.DirFS(dir)}
	key := sha256.Sum256([]byte("stamps"))
	cacheFile := filepath.Join(t.TempDir(), "cache")
	build := func(step string, wantReads ...string) *Snapshot {
		t.Helper()
		fsys.reset()
		s, err := Build(fsys, testConfig(t), Options{Cache: ReadCache(cacheFile, key)}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		if got := fsys.reads(); !slices.Equal(got, wantReads) {
			t.Errorf("%s: read %q, want %q", step, got, wantReads)
		}
		if file, ok := encodeCache(t, s); ok {
			os.WriteFile(cacheFile, file, 0o644)
		}
		cold, err := Build(os.DirFS(dir), testConfig(t), Options{}, testNow)
		if err != nil {
			t.Fatal(err)
		}
		sameSnapshot(t, s, cold)
		return s
	}
	all := []string{"blog/a.md", "blog/b.md", "blog/trip/index.md"}
	build("no cache", all...)
	build("cached")

	// Rewritten to the same size, the modification time put back, and
	// too recently for its stamp to be kept.
	racyWindow = time.Hour
	a := filepath.Join(dir, "blog", "a.md")
	info, _ := os.Stat(a)
	data, _ := os.ReadFile(a)
	os.WriteFile(a, []byte(strings.Replace(string(data), "Body.", "Bodz.", 1)), 0o644)
	os.Chtimes(a, info.ModTime(), info.ModTime())
	if s := build("a rewritten, its time put back", "blog/a.md"); !strings.Contains(s.AllPosts()[0].Body[0].Text+s.AllPosts()[1].Body[0].Text, "Bodz") {
		t.Error("the rewritten post is not the new one")
	}
	// Its stamp was too recent to keep: read again (and hashed, not
	// parsed), until it is old enough.
	build("a just changed", "blog/a.md")
	racyWindow = 0
	build("a settled", "blog/a.md")
	build("all settled")
}

// encodeCache is the cache file s writes, and whether it differs from
// the one s was built with.
func encodeCache(t testing.TB, s *Snapshot) ([]byte, bool) {
	t.Helper()
	var b bytes.Buffer
	if err := s.WriteCache(&b); err != nil {
		t.Fatal(err)
	}
	return b.Bytes(), s.CacheChanged()
}

// writeCacheFile writes the cache file s makes into a temporary folder
// and returns its name.
func writeCacheFile(t *testing.T, s *Snapshot) string {
	t.Helper()
	file, _ := encodeCache(t, s)
	name := filepath.Join(t.TempDir(), "cache")
	if err := os.WriteFile(name, file, 0o644); err != nil {
		t.Fatal(err)
	}
	return name
}

// TestSourceSum: a post's SourceSum is the same whether it was parsed or
// taken from the cache, changes with its file's bytes and with the
// cache's key, and is not said without a cache.
func TestSourceSum(t *testing.T) {
	fsys := cacheSite()
	key := sha256.Sum256([]byte("key"))
	sums := func(s *Snapshot) map[string][sha256.Size]byte {
		t.Helper()
		out := map[string][sha256.Size]byte{}
		for _, p := range s.Posts() {
			sum, ok := s.SourceSum(p)
			if !ok {
				t.Fatalf("%s: no SourceSum", p.File)
			}
			out[p.File] = sum
		}
		return out
	}
	first := build(t, fsys, Options{Cache: NewCache(key)}, testNow)
	name := writeCacheFile(t, first)
	parsed := sums(first)
	warm := build(t, fsys, Options{Cache: ReadCache(name, key)}, testNow)
	if _, cached := warm.CacheCounts(); cached == 0 {
		t.Fatal("nothing taken from the cache")
	}
	if got := sums(warm); !maps.Equal(got, parsed) {
		t.Errorf("from the cache: %v, parsed: %v", got, parsed)
	}
	fsys["blog/a.md"] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys["blog/a.md"].Data), "Body.", "Bodz.", 1))}
	edited := sums(build(t, fsys, Options{Cache: ReadCache(name, key)}, testNow))
	for file, sum := range edited {
		if (sum == parsed[file]) != (file != "blog/a.md") {
			t.Errorf("%s: SourceSum the same after blog/a.md was edited: %v", file, sum == parsed[file])
		}
	}
	for file, sum := range sums(build(t, fsys, Options{Cache: NewCache(sha256.Sum256([]byte("another key")))}, testNow)) {
		if sum == edited[file] {
			t.Errorf("%s: the same SourceSum under another cache key", file)
		}
	}
	cold := build(t, fsys, Options{}, testNow)
	if _, ok := cold.SourceSum(cold.Posts()[0]); ok {
		t.Error("a SourceSum without a cache")
	}
}

// TestFieldsDigest: a post's FieldsDigest is the same taken from the
// cache as parsed, with a cache and without; an edit of its body leaves
// it as it was, an edit of its front matter changes it; a post the cache
// cannot hold has none.
func TestFieldsDigest(t *testing.T) {
	fsys := cacheSite()
	key := sha256.Sum256([]byte("key"))
	digests := func(s *Snapshot) map[string][sha256.Size]byte {
		t.Helper()
		out := map[string][sha256.Size]byte{}
		for _, p := range s.AllPosts() {
			sum, ok := s.FieldsDigest(p)
			if ok != (p.File != "blog/nodate.md") { // a warning's post: the cache holds none
				t.Fatalf("%s: FieldsDigest ok %v", p.File, ok)
			}
			if ok {
				out[p.File] = sum
			}
		}
		return out
	}
	first := build(t, fsys, Options{Cache: NewCache(key)}, testNow)
	name := writeCacheFile(t, first)
	parsed := digests(first)
	if len(parsed) < 2 {
		t.Fatalf("%d posts", len(parsed))
	}
	warm := build(t, fsys, Options{Cache: ReadCache(name, key)}, testNow)
	if _, cached := warm.CacheCounts(); cached == 0 {
		t.Fatal("nothing taken from the cache")
	}
	if got := digests(warm); !maps.Equal(got, parsed) {
		t.Errorf("from the cache: %v, parsed: %v", got, parsed)
	}
	if got := digests(build(t, fsys, Options{}, testNow)); !maps.Equal(got, parsed) {
		t.Errorf("without a cache: %v, parsed: %v", got, parsed)
	}
	seen := map[[sha256.Size]byte]string{}
	for file, sum := range parsed {
		if other, dup := seen[sum]; dup {
			t.Errorf("%s and %s have one FieldsDigest", file, other)
		}
		seen[sum] = file
	}
	body := maps.Clone(fsys)
	body["blog/a.md"] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys["blog/a.md"].Data), "Body.", "Another body, longer.", 1))}
	if got := digests(build(t, body, Options{Cache: ReadCache(name, key)}, testNow)); !maps.Equal(got, parsed) {
		t.Errorf("after a body edit: %v, before: %v", got, parsed)
	}
	title := maps.Clone(fsys)
	title["blog/a.md"] = &fstest.MapFile{Data: []byte(strings.Replace(string(fsys["blog/a.md"].Data), "title: ", "title: Retitled ", 1))}
	for file, sum := range digests(build(t, title, Options{Cache: ReadCache(name, key)}, testNow)) {
		if (sum == parsed[file]) != (file != "blog/a.md") {
			t.Errorf("%s: FieldsDigest the same after blog/a.md's title was edited: %v", file, sum == parsed[file])
		}
	}
}

// TestCacheMapWhole: a cache file the caller knows whole (by its stamp,
// Map's whole) is taken without its CRC being computed; any other is
// refused when a byte is wrong. The cache read whole says which file it
// was (CacheFile).
func TestCacheMapWhole(t *testing.T) {
	fsys := cacheSite()
	key := sha256.Sum256([]byte("key"))
	s := build(t, fsys, Options{Cache: NewCache(key)}, testNow)
	good, _ := encodeCache(t, s)
	// A letter in the middle of the longest run of letters: a body's
	// text, not a length or a key.
	best, at := 0, 0
	for i := 0; i < len(good); {
		j := i
		for j < len(good) && (good[j] >= 'a' && good[j] <= 'z' || good[j] == ' ') {
			j++
		}
		if j-i > best {
			best, at = j-i, i+(j-i)/2
		}
		i = j + 1
	}
	flipped := slices.Clone(good)
	flipped[at] ^= 0x01
	dir := t.TempDir()
	for _, tc := range []struct {
		name  string
		data  []byte
		whole bool
		read  bool
	}{
		{"good", good, false, true},
		{"good, known whole", good, true, true},
		{"a byte wrong", flipped, false, false},
		{"a byte wrong, said whole", flipped, true, true},
	} {
		p := filepath.Join(dir, strings.ReplaceAll(tc.name, " ", "-"))
		os.WriteFile(p, tc.data, 0o644)
		f := OpenCache(p, key)
		if f == nil || f.Info() == nil || f.Info().Size() != int64(len(tc.data)) {
			t.Fatalf("%s: not opened, or not described", tc.name)
		}
		c := f.Map(tc.whole)
		if got := len(c.at) > 0; got != tc.read {
			t.Errorf("%s: read %v, want %v", tc.name, got, tc.read)
		}
		if got := c.file != nil; got != tc.read {
			t.Errorf("%s: says its file %v, want %v", tc.name, got, tc.read)
		}
	}
}
