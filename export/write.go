package export

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"hash"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A File is one exported route: what the server answered for Path and
// where it was stored.
type File struct {
	// Path is the URL path as requested, escaped ("/blog/caf%C3%A9/").
	Path string
	// Name is the slash-separated file name inside the output folder
	// ("blog/café/index.html").
	Name string
	// Status is the answer's status: 200, or 404 for the not-found page.
	Status int
	// Header holds the headers of the plain answer (no Accept, no
	// Accept-Encoding).
	Header http.Header
	// Size is the length of the body.
	Size int
	// Gzip reports that Name+".gz" holds the server's gzip body, and
	// GzipETag is the ETag the server sent with it.
	Gzip     bool
	GzipETag string
	// Markdown is, for a page that negotiates, the Path of the exported
	// route whose body the page's Markdown answer is, and MarkdownHeader
	// that answer's headers (they differ from the route's own by Vary).
	Markdown       string
	MarkdownHeader http.Header

	sum, mdSum [sha256.Size]byte
	// What the manifest keeps (manifest.go): the route's fingerprint
	// (Print.Sum) and whose bodies it is made of (Print.Post, Posts),
	// the file's modification and status-change times (Unix ns), and
	// its gzip answer.
	fingerprint    [sha256.Size]byte
	fpPost         string
	fpPosts        bool
	hasFingerprint bool
	mod, change    int64
	gz             gzipFile
	// kept is the previous record's route this one was kept as (reuse);
	// was, for a route asked again, its previous record.
	kept, was *manifestRoute
	// packed holds Header and MarkdownHeader, packed once the route is
	// written (packhdr.go); fillHeaders unpacks them.
	packed *packedHeaders
}

// Negotiates reports whether the server chose this answer among
// representations by Accept (it said Vary: Accept).
func (f *File) Negotiates() bool {
	plain, _ := f.headers()
	return varies(plain, "Accept")
}

// varies reports whether h's Vary names the request header name.
func varies(h http.Header, name string) bool {
	for _, v := range h.Values("Vary") {
		for m := range strings.SplitSeq(v, ",") {
			if strings.EqualFold(strings.TrimSpace(m), name) {
				return true
			}
		}
	}
	return false
}

// FileName maps a URL path to its file in the export: "/x/" is
// "x/index.html", anything else keeps its name, percent-decoded (nginx
// looks files up by the decoded path). A path that would leave the output
// folder is an error.
func FileName(urlPath string) (string, error) {
	p, err := url.PathUnescape(urlPath)
	if err != nil {
		return "", fmt.Errorf("export: path %q: %w", urlPath, err)
	}
	if strings.HasSuffix(p, "/") {
		p += "index.html"
	}
	name := strings.TrimPrefix(p, "/")
	if !strings.HasPrefix(p, "/") || path.Clean(name) != name || !filepath.IsLocal(filepath.FromSlash(name)) || strings.ContainsRune(name, 0) {
		return "", fmt.Errorf("export: path %q does not name a file inside the output folder", urlPath)
	}
	return name, nil
}

// Options tune Write.
type Options struct {
	// NotFound is the path whose answer is the 404 page; it is the one
	// path expected to answer 404 rather than 200.
	NotFound string
	// Redirects are paths that may answer 301; the answers of those that
	// do are recorded for the nginx config, not written as files.
	Redirects []string
	// Aliases are paths the server answers with a 301 that are written
	// as HTML redirect pages (alias.go), after the paths; one whose file
	// a route holds is left out.
	Aliases []Alias
	// Malformed, when set, names the paths the server refuses with 400 by
	// their shape alone, for the static host to refuse alike.
	Malformed *Malformed
	// Indexes are the index.html files of static folders that the paths
	// hold at their folder's URL ("/x/" for "/x/index.html"), by their
	// own URL path: the server answers both alike, and so do the nginx
	// config and the Worker, from the one file (Site.Indexes).
	Indexes []string
	// NoGzip leaves out the .gz twins, for a host that compresses as
	// each client asks (Cloudflare).
	NoGzip bool
	// Check, when set, runs once every answer is written, before the new
	// folder replaces out: an error from it fails the export and leaves out
	// untouched (the server's answers can reveal problems, such as a link
	// to a post that is not published, only once they are made).
	Check func() error
	// Fingerprint, when set, says of a path a value that changes whenever
	// any of its answers would (ok false: no such value, ask the
	// handler). A build over a previous one keeps the files of a path
	// whose fingerprint is the one recorded, without asking the handler.
	// prev, not nil over a previous export, says what it recorded of a
	// path: its fingerprint and its plain body's length.
	Fingerprint func(urlPath string, prev func(urlPath string) (fp [sha256.Size]byte, size int, ok bool)) (Print, bool)
	// Shape and Refingerprint, when set with Fingerprint, spare a build
	// over a previous one most fingerprints. Shape is what every
	// fingerprint is made of but posts' bodies (Print): over a previous
	// export of the same Shape, a path whose recorded fingerprint was
	// made of no body has that fingerprint still, and one made of one
	// post's body is Refingerprint(path, the post's file) (ok false: ask
	// Fingerprint). Only a path made of several posts' bodies, or of
	// none recorded, is asked of Fingerprint.
	Shape         func() [sha256.Size]byte
	Refingerprint func(urlPath, post string) (fp [sha256.Size]byte, ok bool)
	// Cold writes every file afresh even over a previous export.
	Cold bool
	// Stop, when closed, stops the export between two paths: Stage
	// returns ErrStopped and leaves nothing behind (folio build's
	// SIGTERM or Ctrl-C).
	Stop <-chan struct{}
	// Ahead, when set, is out's record read, and out looked at, while
	// the caller made the site (ReadAhead): Stage takes it when the
	// record is still the one read. The caller closes it.
	Ahead *Ahead
}

// A Print is a path's fingerprint (Options.Fingerprint), and whose
// bodies it is made of besides the site's shape (Options.Shape): Post,
// one post's (its content file); Posts, several posts'; neither, none.
type Print struct {
	Sum   [sha256.Size]byte
	Post  string
	Posts bool
}

// Malformed describes paths refused by their shape: those under Prefix
// ending in Suffix, with no slash between, whose middle does not match
// Valid (a regular expression for the whole middle, without anchors).
// Probe is one of them: the server's answer to it is recorded and
// replayed, so it must not depend on the path.
type Malformed struct {
	Prefix, Suffix, Valid, Probe string
}

// A Releaser is a handler that keeps what it prepares for a path and can
// let it go once the path is exported.
type Releaser interface {
	Release(urlPath string)
}

// A Site is what Write exported: the files, and the answers a static host
// has to make at request time, recorded from the server.
type Site struct {
	Files     []File
	Redirects []Answer
	Dynamic   Dynamic
	// Malformed is Options.Malformed, whose answer is Dynamic.Malformed.
	Malformed *Malformed
	// Indexes are Options.Indexes, each with the route whose file
	// answers it.
	Indexes []Index
	// AliasesLeftOut are the aliases of Options.Aliases the export holds
	// no page for (a route's file is there), and why.
	AliasesLeftOut []AliasLeftOut
	// Over a previous export (Updated): the files written, and those
	// removed because the export no longer has them; every other file
	// stood as it was.
	Updated          bool
	Written, Removed int

	// shape is Options.Shape's, recorded (nil: none).
	shape *[sha256.Size]byte
}

// An Index is a static folder's index.html file, exported at its
// folder's URL, that also answers at its own.
type Index struct {
	// Path is the file's own URL path ("/x/index.html") and Route the
	// exported route that holds it ("/x/"), escaped as the site emits
	// them.
	Path, Route string
}

// Write asks h for every path and writes the answers into a fresh folder
// that then replaces out: Stage, then Commit. The files are in the order
// of paths. Any answer other than 200 (404 for opts.NotFound), or two
// paths sharing a file, fails the export and leaves out untouched.
func Write(out string, h http.Handler, paths []string, opts Options) (*Site, error) {
	st, err := Stage(out, h, paths, opts)
	if err != nil {
		return nil, err
	}
	if err := st.Commit(); err != nil {
		return nil, err
	}
	st.Site.fillHeaders()
	return st.Site, nil
}

// writeAll renders every path into dir, on as many goroutines as there are
// processors: the first request for a page is what renders it.
func writeAll(w *writer, h http.Handler, paths []string, opts Options) ([]File, error) {
	files := make([]File, len(paths))
	var prevs []*manifestRoute
	if w.prevs != nil {
		prevs = <-w.prevs // samePaths, found meanwhile
	} else {
		prevs = w.samePaths(paths)
	}
	// Over the previous build's paths, whose files it found distinct,
	// each path's file is named by the worker that writes it (at 10,000
	// posts, 29,000 files named in one loop, 9 MB touched, took 5 ms of
	// one core while the other waited).
	if w.same = prevs != nil; !w.same {
		if err := nameFiles(files[:w.routes], paths[:w.routes]); err != nil {
			return nil, err
		}
		// An alias left out here is in paths but not in the record: the
		// next build names the files again too, and says so again.
		files, w.left = aliasNames(files[:w.routes], w.aliasList)
	}
	var (
		wg    sync.WaitGroup
		once  sync.Once
		first error
		next  = make(chan int)
	)
	// Workers take runs of neighbouring paths: a post's page and its
	// Markdown come one after the other and share one render, which a
	// second worker asking for the other would only wait for.
	//
	// A handler that can release what it prepared for a path is told so
	// (unless the path's files were kept, and it was not asked) once the
	// path's run and the next are both written: what a release
	// drops is shared only by neighbours (a post's page and its
	// Markdown, a list's page and its Markdown) or by no other path (the
	// API's posts.json and cursor pages, llms.txt, llms-full.txt, the
	// sitemaps: Server.Release), so nothing is released while a worker
	// may still ask for it, and the export does not hold every answer of
	// the site at once.
	const run = 32
	var (
		mu      sync.Mutex
		done    = map[int]bool{} // runs written, by start, not yet released
		mark    int              // the runs before mark are released
		release func(start int)
	)
	if r, ok := h.(Releaser); ok {
		release = func(start int) {
			for i := start; i < min(start+run, len(files)); i++ {
				if files[i].kept == nil {
					r.Release(files[i].Path)
				}
			}
		}
	}
	finished := func(start int) {
		if release == nil {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		done[start] = true
		for done[mark] && (done[mark+run] || mark+run >= len(files)) {
			release(mark)
			delete(done, mark)
			mark += run
		}
	}
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for start := range next {
				for i := start; i < min(start+run, len(files)); i++ {
					if stopped(opts.Stop) {
						once.Do(func() { first = ErrStopped })
						break
					}
					var prev *manifestRoute
					if prevs != nil {
						prev = prevs[i]
						files[i] = File{Path: paths[i], Name: prev.Name}
					} else {
						prev = w.prev[files[i].Path]
					}
					hi := h
					if i >= w.routes { // an alias page (Options.Aliases)
						hi = aliasHandler{h: h, alias: w.aliases[files[i].Path]}
					}
					if err := w.writeOne(hi, &files[i], prev, opts); err != nil {
						once.Do(func() { first = err })
					}
					w.headers.packHeaders(&files[i])
				}
				finished(start)
			}
		})
	}
	for start := 0; start < len(files); start += run {
		next <- start
	}
	close(next)
	wg.Wait()
	if first != nil {
		return nil, first
	}
	return files, linkMarkdown(files)
}

// ErrStopped is Stage's error when Options.Stop closed before every
// path was written: out is as it was.
var ErrStopped = errors.New("export: stopped")

// stopped reports whether stop is closed (never, for nil).
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// nameFiles names the file of each path, refusing two paths of one file
// and a file where another path's folder goes.
func nameFiles(files []File, paths []string) error {
	owner := map[string]string{}   // file name → route
	folders := map[string]string{} // folder name → a route stored under it
	for i, p := range paths {
		name, err := FileName(p)
		if err != nil {
			return err
		}
		for _, n := range []string{name, name + ".gz"} {
			if prev, dup := owner[n]; dup {
				return &NameClash{Paths: [2]string{prev, p}, msg: fmt.Sprintf("export: %s and %s both map to the file %s", prev, p, n)}
			}
			if prev, dup := folders[n]; dup {
				return clash(p, prev, n)
			}
		}
		for d := path.Dir(name); d != "."; d = path.Dir(d) {
			if prev, dup := owner[d]; dup {
				return clash(prev, p, d)
			}
			folders[d] = p
		}
		owner[name], owner[name+".gz"] = p, p
		files[i] = File{Path: p, Name: name}
	}
	return caseClash(files)
}

// samePaths is the previous build's route of each path when paths are
// those of the previous build, which named their files without a clash;
// nil otherwise. (Each path is looked up once: three lookups of each of
// 29,000 paths cost a build after an edit some 10 ms.)
func (w *writer) samePaths(paths []string) []*manifestRoute {
	if w.prev == nil || len(paths) != len(w.prev) {
		return nil
	}
	prevs := make([]*manifestRoute, len(paths))
	seen := make([]bool, len(paths)) // by the route's place in the record
	for i, p := range paths {
		r := w.prev[p]
		if r == nil || r.index >= len(seen) || seen[r.index] {
			return nil
		}
		seen[r.index] = true
		prevs[i] = r
	}
	return prevs
}

// clash is the error for a route whose file is the folder of another's
// (a post slugged "x.md" beside a post "x": /blog/x.md is one's Markdown
// and the other's page folder holds blog/x.md/index.html).
func clash(file, under, name string) error {
	return &NameClash{Paths: [2]string{file, under}, msg: fmt.Sprintf("export: %s and %s cannot both be exported: %s would be a file of the first (or its .gz twin) and a folder of the second (rename a slug or the section)", file, under, name)}
}

// A NameClash is the error for two routes the export cannot hold
// together: their files would be one (exactly, or where the file system
// ignores case), or one's file would be the other's folder. folio build
// refuses the site, and folio check says so, at the content file that
// makes the second route.
type NameClash struct {
	Paths [2]string // the routes, escaped as the site emits them
	msg   string
}

func (e *NameClash) Error() string { return e.msg }

// linkMarkdown finds, for each page that negotiates, the exported route
// whose body its Markdown answer is: nginx serves that file. It is the
// route after the page when that route's body is the answer (a page's
// twin is listed after it: ExportPaths), else the last route with that
// body. (A map of every route's body, 29,000 at 10,000 posts, took
// 6 ms of one core at the end of the export.)
func linkMarkdown(files []File) error {
	var bySum map[[sha256.Size]byte]string
	for i := range files {
		f := &files[i]
		if !f.hasMarkdown() {
			continue
		}
		if i+1 < len(files) && files[i+1].sum == f.mdSum {
			f.Markdown = files[i+1].Path
			continue
		}
		if bySum == nil {
			bySum = make(map[[sha256.Size]byte]string, len(files))
			for i := range files {
				bySum[files[i].sum] = files[i].Path
			}
		}
		p, ok := bySum[f.mdSum]
		if !ok {
			return fmt.Errorf("export: the Markdown answer of %s is the body of no exported route", f.Path)
		}
		f.Markdown = p
	}
	return nil
}

// A writer stores answers under dir. It remembers the folders it made, so
// that each is made once rather than checked for every file in it.
//
// Over a previous export (out, with its manifest prev), it writes only
// the files whose bytes changed, and keeps the others in out as they are
// (incremental.go); written lists what it wrote, for the commit.
type writer struct {
	dir  string
	made sync.Map // folder → struct{}

	out  string
	prev map[string]*manifestRoute
	// outDir is out, opened for looking up its files (nil: no
	// previous export).
	outDir *outDir
	// same: the paths are the previous build's (samePaths); prevs,
	// when not nil, gives samePaths of the paths, found while the
	// shape was made.
	same  bool
	prevs chan []*manifestRoute
	// sameShape: the previous build's record is of the site's shape
	// (Options.Shape).
	sameShape bool
	// aliases are the alias pages to write (Options.Aliases), by path,
	// listed after the routes' paths (the first
	// routes of paths); left, those left out and why (aliasNames).
	routes    int
	aliases   map[string]Alias
	aliasList []Alias
	left      []AliasLeftOut

	mu      sync.Mutex
	written []string // names written under dir, over a previous export (out)

	// headers numbers the header entries the routes written share.
	headers headerTable
}

// writeOne stores the plain answer for f.Path and, when the server
// compresses it, the gzip answer as the .gz twin. The bodies go from the
// handler straight into their files. Over a previous export (prev is
// the path's record, nil for none), a path whose fingerprint is
// unchanged is not asked at all, and an answer whose bytes are the
// previous file's is not written (see incremental.go).
func (w *writer) writeOne(h http.Handler, f *File, prev *manifestRoute, opts Options) error {
	want := http.StatusOK
	if f.Path == opts.NotFound {
		want = http.StatusNotFound
	}
	if _, ok := h.(aliasHandler); ok {
		want = http.StatusMovedPermanently // the 301 an alias page stands for
	}
	if opts.Fingerprint != nil {
		var pr Print
		pr, f.hasFingerprint = w.fingerprint(f.Path, prev, opts)
		f.fingerprint, f.fpPost, f.fpPosts = pr.Sum, pr.Post, pr.Posts
		if prev != nil && f.hasFingerprint && prev.HasFingerprint && prev.Fingerprint == f.fingerprint && w.intact(prev) {
			f.reuse(prev)
			return nil
		}
	}
	f.was = prev
	file := filepath.Join(w.dir, filepath.FromSlash(f.Name))
	plain := &fileAnswer{w: w, name: file, keep: func(int, http.Header) bool { return true }}
	if prev != nil {
		plain.prev = prev.prevPlain()
	}
	if err := serveKept(h, plain, f.Path, ""); err != nil {
		return err
	}
	if plain.code != want {
		return fmt.Errorf("export: GET %s answered %d, want %d: %.200s", f.Path, plain.code, want, plain.head)
	}
	f.Status, f.Header, f.Size, f.sum, f.mod, f.change = plain.code, plain.header, int(plain.size), plain.sum, plain.mod, plain.change
	if plain.unchanged {
		f.Header = withModified(f.Header, prev.Header)
	}
	if f.Negotiates() && want == http.StatusOK {
		md := &fileAnswer{keep: func(int, http.Header) bool { return false }}
		if err := serve(h, md, f.Path, "", "Accept", "text/markdown"); err != nil {
			return err
		}
		if md.code != http.StatusOK {
			return fmt.Errorf("export: GET %s as text/markdown answered %d", f.Path, md.code)
		}
		f.MarkdownHeader, f.mdSum = md.header, md.sum
		if prev != nil && prev.MarkdownSum == md.sum {
			f.MarkdownHeader = withModified(f.MarkdownHeader, prev.MarkdownHeader)
		}
	}
	if opts.NoGzip || !varies(f.Header, "Accept-Encoding") {
		return nil // no compressed form: the server says so with Vary
	}
	gz := &fileAnswer{w: w, name: file + ".gz", keep: func(code int, hd http.Header) bool {
		return code == want && hd.Get("Content-Encoding") == "gzip"
	}}
	if prev != nil {
		gz.prev = prev.prevGzip()
	}
	if err := serveKept(h, gz, f.Path, "gzip"); err != nil {
		return err
	}
	f.Gzip = gz.kept
	if f.Gzip {
		f.GzipETag = gz.header.Get("Etag")
		f.gz = gzipFile{sum: gz.sum, size: gz.size, mod: gz.mod, change: gz.change}
	}
	return nil
}

// fingerprint is the path's Print (Options.Fingerprint): over a previous
// export of the same shape, from its record (see Options.Shape).
func (w *writer) fingerprint(urlPath string, prev *manifestRoute, opts Options) (Print, bool) {
	if w.sameShape && prev != nil && prev.HasFingerprint && !prev.FingerprintPosts {
		if prev.FingerprintPost == "" {
			return Print{Sum: prev.Fingerprint}, true
		}
		if fp, ok := opts.Refingerprint(urlPath, prev.FingerprintPost); ok {
			return Print{Sum: fp, Post: prev.FingerprintPost}, true
		}
	}
	return opts.Fingerprint(urlPath, w.recorded)
}

// serve answers GET path through h into a, and closes a's file.
func serve(h http.Handler, a *fileAnswer, urlPath, encoding string, header ...string) error {
	req, err := request(http.MethodGet, urlPath, encoding, header...)
	if err != nil {
		return err
	}
	h.ServeHTTP(a, req)
	return a.close()
}

// A fileAnswer is the http.ResponseWriter of one exported answer: it notes
// the status and headers, hashes the body, and writes it to the file name
// when keep accepts the status and headers (else only hashes it). The
// file's modification time is the answer's Last-Modified, so that a
// static host sends the same.
type fileAnswer struct {
	w    *writer
	name string
	keep func(code int, header http.Header) bool
	// prev, over a previous export, is the file that answer wrote: when
	// the status, ETag and length are its, the file stands and nothing
	// is written (unchanged), once the body hashes as before.
	prev      *prevFile
	unchanged bool
	// The file's modification and status-change times (Unix ns), the
	// latter read after the file's last change here (a file moved into
	// out is read again: see Staged.restamp).
	mod, change int64

	header http.Header
	code   int
	kept   bool
	size   int64
	sum    [sha256.Size]byte
	head   []byte // the first bytes, for error messages
	hash   hash.Hash
	file   io.WriteCloser
	err    error
}

func (a *fileAnswer) Header() http.Header {
	if a.header == nil {
		// A page's answer has nine to twelve headers: room for them
		// at once (792 bytes in four allocations), rather than a map
		// that grows past eight (1,144 bytes in five).
		a.header = make(http.Header, 14)
	}
	return a.header
}

func (a *fileAnswer) WriteHeader(code int) {
	if a.code != 0 {
		return
	}
	a.code = code
	a.hash = sha256.New()
	if a.kept = a.keep(code, a.Header()); a.kept {
		if a.prev.matches(code, a.header) && a.w.intactFile(a.prev.name, a.prev.size, a.prev.mod, a.prev.change) {
			a.unchanged = true
			return
		}
		a.file, a.err = a.w.create(a.name)
	}
}

func (a *fileAnswer) Write(p []byte) (int, error) {
	if a.code == 0 {
		a.WriteHeader(http.StatusOK)
	}
	if a.err != nil {
		return 0, a.err
	}
	if len(a.head) < 200 {
		a.head = append(a.head, p[:min(len(p), 200-len(a.head))]...)
	}
	a.hash.Write(p)
	a.size += int64(len(p))
	if a.file != nil {
		if _, err := a.file.Write(p); err != nil {
			a.err = fmt.Errorf("export: %w", err)
			return 0, a.err
		}
	}
	return len(p), nil
}

// close finishes the answer: the hash, the file closed with its time.
func (a *fileAnswer) close() error {
	if a.code == 0 {
		a.WriteHeader(http.StatusOK)
	}
	a.hash.Sum(a.sum[:0])
	if a.unchanged {
		if a.sum != a.prev.sum {
			return errChanged
		}
		a.mod, a.change = a.prev.mod, a.prev.change
		return nil
	}
	if a.file == nil {
		return a.err
	}
	modified, merr := http.ParseTime(a.header.Get("Last-Modified"))
	stamped := false // the time is set, and read, through the open file
	if f, ok := a.file.(timedFile); ok && merr == nil && a.err == nil {
		err := f.setModTime(modified)
		if err == nil {
			a.change, err = f.changed()
		}
		if err != nil {
			a.err = fmt.Errorf("export: %w", err)
		}
		stamped = true
	}
	if err := a.file.Close(); err != nil && a.err == nil {
		a.err = fmt.Errorf("export: %w", err)
	}
	if a.err != nil {
		return a.err
	}
	if n := a.header.Get("Content-Length"); n != "" && n != strconv.FormatInt(a.size, 10) {
		return fmt.Errorf("export: %s: the answer's body (%d bytes) does not match its Content-Length (%s)", a.name, a.size, n)
	}
	if stamped {
		a.mod = modified.UnixNano()
		return nil
	}
	if merr == nil {
		if err := os.Chtimes(a.name, modified, modified); err != nil {
			return fmt.Errorf("export: %w", err)
		}
	}
	_, mod, change, ok := regularFile(a.name)
	if !ok {
		return fmt.Errorf("export: %s is no longer a regular file", a.name)
	}
	a.mod, a.change = mod, change
	return nil
}

// A timedFile can set its modification time while it is open, without
// looking its name up again (futimens rather than utimensat on a path),
// and then say its status-change time (fstat).
type timedFile interface {
	setModTime(t time.Time) error
	changed() (int64, error)
}

// create makes name for writing, and its folder the first time.
func (w *writer) create(name string) (io.WriteCloser, error) {
	if err := w.mkdir(filepath.Dir(name)); err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	if w.out != "" {
		// Over a previous export, the names move into out at the
		// commit; a fresh folder is put in place whole, and keeping
		// its 57,000 names (at 10,000 posts) was some 6 MB to its end.
		w.mu.Lock()
		w.written = append(w.written, name)
		w.mu.Unlock()
	}
	f, err := createNew(name)
	if errors.Is(err, fs.ErrExist) {
		// Names, and names against folders, are checked to be distinct
		// first; only a file system that folds case or normalises names
		// can make two of them one file.
		return nil, fmt.Errorf("export: %s: two routes name this file on this file system (does it ignore case?): %w", name, err)
	}
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	return f, nil
}

// mkdir makes the folder dir under w.dir, and the folders above it that
// are not made yet, once. It asks for the folder first and for its
// parent only when that is missing: os.MkdirAll would first stat dir and
// its parent, two more system calls for each of the export's some 14,000
// folders (most of them a page's own, whose parent is already made).
func (w *writer) mkdir(dir string) error {
	if _, done := w.made.Load(dir); done || dir == w.dir {
		return nil
	}
	err := os.Mkdir(dir, 0o755)
	if errors.Is(err, fs.ErrNotExist) {
		if parent := filepath.Dir(dir); parent != dir {
			if err = w.mkdir(parent); err == nil {
				err = os.Mkdir(dir, 0o755)
			}
		}
	}
	if errors.Is(err, fs.ErrExist) {
		// Another worker made it, unless a file stands there.
		if info, serr := os.Stat(dir); serr == nil && info.IsDir() {
			err = nil
		}
	}
	if err != nil {
		return err
	}
	w.made.Store(dir, struct{}{})
	return nil
}

// get answers GET path through h, as a client would ask it, with
// Accept-Encoding: encoding (unless empty) and further header pairs.
func get(h http.Handler, urlPath, encoding string, header ...string) *httptest.ResponseRecorder {
	if encoding != "" {
		header = append(header, "Accept-Encoding", encoding)
	}
	return ask(h, http.MethodGet, urlPath, header...)
}

// ask answers one request through h, in process.
func ask(h http.Handler, method, urlPath string, header ...string) *httptest.ResponseRecorder {
	rec := httptest.NewRecorder()
	req, err := request(method, urlPath, "", header...)
	if err != nil {
		rec.WriteHeader(http.StatusBadRequest)
		fmt.Fprint(rec.Body, err)
		return rec
	}
	h.ServeHTTP(rec, req)
	return rec
}

// request is the request a client would send for urlPath, with
// Accept-Encoding: encoding (unless empty) and further header pairs.
func request(method, urlPath, encoding string, header ...string) (*http.Request, error) {
	req, err := http.NewRequest(method, "http://export.invalid"+urlPath, nil)
	if err != nil {
		return nil, fmt.Errorf("export: %w", err)
	}
	req.RemoteAddr = "192.0.2.1:9"
	if encoding != "" {
		req.Header.Set("Accept-Encoding", encoding)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	return req, nil
}

// Replaceable refuses to replace a folder that is not a previous export:
// --out pointed at the wrong place must not cost anyone their files. An
// absent or empty folder is fine.
//
// An export always holds 404.html and api/posts.json, and folio's API
// catalog (.well-known/api-catalog) or, before it had one, the home page.
// The home page alone is no mark: a site whose default language lives in
// its folder with the redirect turned off (disableDefaultSiteRedirect)
// has nothing at /, as Hugo publishes it. The build record beside the
// folder is no mark either: a build that dies half way leaves none.
func Replaceable(out string) error {
	entries, err := os.ReadDir(out)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("export: output folder: %w", err)
	}
	for _, markers := range [][]string{{"404.html"}, {"api/posts.json"}, {".well-known/api-catalog", "index.html"}} {
		if !slices.ContainsFunc(markers, func(m string) bool {
			info, err := os.Stat(filepath.Join(out, m))
			return err == nil && info.Mode().IsRegular()
		}) {
			return fmt.Errorf("export: %s is not empty and does not look like an earlier export (no %s); remove it or choose another --out", out, strings.Join(markers, " nor "))
		}
	}
	return nil
}
