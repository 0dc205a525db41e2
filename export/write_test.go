package export

import (
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
)

func TestFileName(t *testing.T) {
	for _, tc := range []struct {
		path, want string
		bad        bool
	}{
		{path: "/", want: "index.html"},
		{path: "/blog/", want: "blog/index.html"},
		{path: "/blog/x/", want: "blog/x/index.html"},
		{path: "/blog/x.md", want: "blog/x.md"},
		{path: "/blog.md", want: "blog.md"},
		{path: "/api/posts/cursor/a-b_C.json", want: "api/posts/cursor/a-b_C.json"},
		{path: "/404.html", want: "404.html"},
		{path: "/blog/caf%C3%A9/", want: "blog/café/index.html"},
		{path: "/blog/a%20b/img/x.png", want: "blog/a b/img/x.png"},
		{path: "/blog/%2E%2E/", bad: true},
		{path: "/../etc/passwd", bad: true},
		{path: "/blog//x/", bad: true},
		{path: "/blog/%zz", bad: true},
		{path: "blog/x", bad: true},
		{path: "/a%00b", bad: true},
	} {
		got, err := FileName(tc.path)
		if tc.bad {
			if err == nil {
				t.Errorf("FileName(%q) = %q, want an error", tc.path, got)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("FileName(%q) = %q, %v; want %q", tc.path, got, err, tc.want)
		}
	}
}

func TestWrite(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	site, err := Write(out, fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{
		"index.html":      bigPage,
		"blog/index.html": dirHTML,
		"blog.md":         dirMarkdown,
		"broken":          "fine",
		"404.html":        page404,
	} {
		if got := readFile(t, out, name); got != want {
			t.Errorf("%s = %.60q, want %.60q", name, got, want)
		}
	}
	// Only what the server compresses has a twin, and it holds the
	// server's gzip body.
	for name, want := range map[string]string{"index.html.gz": bigPage, "404.html.gz": page404} {
		if got := gunzip(t, readFile(t, out, name)); got != want {
			t.Errorf("%s holds %.60q", name, got)
		}
	}
	for _, name := range []string{"blog/index.html.gz", "blog/café/photo.png.gz"} {
		if _, err := os.Stat(filepath.Join(out, name)); err == nil {
			t.Errorf("%s exists; the server does not compress that answer", name)
		}
	}
	// Each file, and its .gz twin, is last modified when its answer says.
	for _, name := range []string{"blog.md", "index.html", "index.html.gz"} {
		info, err := os.Stat(filepath.Join(out, name))
		if err != nil || !info.ModTime().Equal(fakeModified) {
			t.Errorf("%s modified %v (%v), want the answer's Last-Modified %v", name, info.ModTime(), err, fakeModified)
		}
	}
	if dir := site.Files[1]; dir.Path != "/blog/" || dir.Markdown != "/blog.md" || dir.MarkdownHeader.Get("Vary") != "Accept" {
		t.Errorf("/blog/ recorded as %+v, want its Markdown alternate /blog.md", dir)
	}
	if len(site.Redirects) != 2 || site.Redirects[0].Path != "/blog" || site.Redirects[1].Path != "/old" {
		t.Errorf("redirects %+v, want /blog and /old (the other candidates answer no 301)", site.Redirects)
	}
	d := site.Dynamic
	if d.NotAcceptable406 == nil || d.NotAcceptable406.Status != 406 {
		t.Errorf("probes %+v", d)
	}
	// 405 and OPTIONS on the page that negotiates say Vary: Accept; on
	// other paths they do not.
	for what, p := range map[string]Pair{"405": d.Method405, "OPTIONS": d.Options} {
		if p.Negotiating == nil || p.Negotiating.Header.Get("Vary") != "Accept" || p.Plain.Header.Get("Vary") != "" || p.CORS.Header.Get("Vary") != "" {
			t.Errorf("%s answers %+v, want Vary: Accept on the negotiating page's alone", what, p)
		}
	}
	if got := d.Method405.CORS.Body; got != `{"detail":"method @@FOLIO_METHOD@@ is not allowed","status":405}`+"\n" {
		t.Errorf("405 body %q, want the method marked", got)
	}
	if got := d.Problem404.CORS.Body; !strings.Contains(got, "no such resource: "+MarkPath) || d.Problem404.CORS.Header.Get("Access-Control-Allow-Origin") != "*" {
		t.Errorf("404 problem %q %v, want the path marked, with CORS", got, d.Problem404.CORS.Header)
	}
	if got := d.Options.CORS.Header.Get("Access-Control-Allow-Headers"); got != MarkHeaders {
		t.Errorf("OPTIONS echoes %q, want the marker", got)
	}
	assertNoTemp(t, out)
}

func TestWriteFailureKeepsOutput(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Write(out, fakeSite{}, fakePaths, fakeOptions); err != nil {
		t.Fatal(err)
	}
	_, err := Write(out, fakeSite{broken: true}, fakePaths, fakeOptions)
	if err == nil || !strings.Contains(err.Error(), "/broken answered 500") {
		t.Fatalf("export with a failing route: %v, want the route named", err)
	}
	if got := readFile(t, out, "broken"); got != "fine" {
		t.Errorf("previous output changed: broken = %q", got)
	}
	assertNoTemp(t, out)
}

func TestWriteShortAnswerFails(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	_, err := Write(out, fakeSite{short: true}, fakePaths, fakeOptions)
	if err == nil || !strings.Contains(err.Error(), "body (4 bytes) does not match its Content-Length (10)") {
		t.Fatalf("export of an answer shorter than its Content-Length: %v, want an error", err)
	}
	if _, err := os.Stat(out); !os.IsNotExist(err) {
		t.Errorf("output written after a cut answer: %v", err)
	}
	assertNoTemp(t, out)
}

// TestWriteFileFolderClash: a route whose file would be another route's
// folder is refused before anything is written, naming both.
func TestWriteFileFolderClash(t *testing.T) {
	for _, paths := range [][]string{
		{"/blog/p1.md", "/blog/p1.md/"},
		{"/blog/p1.md/", "/blog/p1.md"},
		{"/blog/p1.md.gz", "/blog/p1.md"},
	} {
		_, err := Write(filepath.Join(t.TempDir(), "public"), fakeSite{}, paths, fakeOptions)
		if err == nil || !strings.Contains(err.Error(), paths[0]) || !strings.Contains(err.Error(), paths[1]) {
			t.Errorf("%v: %v, want an error naming both routes", paths, err)
		}
	}
}

func TestWriteReplacesOnlyExports(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "thesis.tex"), []byte("years of work"), 0o644)
	_, err := Write(dir, fakeSite{}, fakePaths, fakeOptions)
	if err == nil || !strings.Contains(err.Error(), "does not look like an earlier export") {
		t.Fatalf("export over a folder of other files: %v, want a refusal", err)
	}
	if got := readFile(t, dir, "thesis.tex"); got != "years of work" {
		t.Errorf("the folder's files changed")
	}
}

// TestReplaceable: an earlier export is known by the files folio always
// writes (404.html, api/posts.json, and the API catalog or, in exports
// made before it, index.html), not by its home page: a site whose
// default language lives in its folder with the redirect turned off
// has nothing at / (TestAliasPagesAreHugos builds one twice). A folder
// short of any of them is refused and left as it was.
func TestReplaceable(t *testing.T) {
	cases := []struct {
		name  string
		files []string
		ok    bool
	}{
		{"absent", nil, true},
		{"an export", []string{"index.html", "404.html", "api/posts.json", ".well-known/api-catalog"}, true},
		{"an export with nothing at /", []string{"404.html", "api/posts.json", ".well-known/api-catalog"}, true},
		{"an export made before the API catalog", []string{"index.html", "404.html", "api/posts.json"}, true},
		{"no 404.html", []string{"index.html", "api/posts.json", ".well-known/api-catalog"}, false},
		{"no api/posts.json", []string{"index.html", "404.html", ".well-known/api-catalog"}, false},
		{"neither catalog nor home", []string{"404.html", "api/posts.json"}, false},
		{"a folder of pages", []string{"index.html", "404.html", "about/index.html"}, false},
		{"the catalog a folder", []string{"404.html", "api/posts.json", ".well-known/api-catalog/x"}, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "public")
			for _, f := range c.files {
				p := filepath.Join(out, filepath.FromSlash(f))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			err := Replaceable(out)
			switch {
			case c.ok && err != nil:
				t.Errorf("Replaceable: %v, want nil", err)
			case !c.ok && (err == nil || !strings.Contains(err.Error(), "does not look like an earlier export")):
				t.Errorf("Replaceable: %v, want a refusal", err)
			}
		})
	}
}

func TestWriteCollision(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	_, err := Write(out, fakeSite{}, []string{"/blog/", "/blog/index.html", "/404.html"}, fakeOptions)
	if err == nil || !strings.Contains(err.Error(), "both map to the file blog/index.html") {
		t.Fatalf("two routes for one file: %v, want both named", err)
	}
	if _, err := os.Stat(out); err == nil {
		t.Errorf("a failed first export left %s behind", out)
	}
}

func readFile(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func gunzip(t *testing.T, s string) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader([]byte(s)))
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// assertNoTemp checks no temporary folder is left beside out.
func assertNoTemp(t *testing.T, out string) {
	t.Helper()
	entries, _ := os.ReadDir(filepath.Dir(out))
	for _, e := range entries {
		if e.Name() != filepath.Base(out) && e.Name() != filepath.Base(manifestPath(out)) {
			t.Errorf("left behind: %s", e.Name())
		}
	}
}

// releasingSite is fakeSite that notes the paths released, and the
// requests for a path after it, or its neighbour, was released (a post's
// page and Markdown are neighbours and share what is released).
type releasingSite struct {
	fakeSite
	paths    []string
	mu       sync.Mutex
	released map[string]int
	late     []string
}

func (r *releasingSite) Release(p string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.released[p]++
}

func (r *releasingSite) ServeHTTP(w http.ResponseWriter, req *http.Request) {
	r.mu.Lock()
	// Only the generated paths: the probes after the files (404, 406,
	// redirects) may ask again for what was released, and are answered
	// alike.
	if i := slices.Index(r.paths, req.URL.Path); i >= 0 && strings.HasPrefix(req.URL.Path, "/blog/p") {
		for _, j := range []int{i - 1, i, i + 1} {
			if j >= 0 && j < len(r.paths) && r.released[r.paths[j]] > 0 {
				r.late = append(r.late, req.URL.Path+" after "+r.paths[j])
			}
		}
	}
	r.mu.Unlock()
	r.fakeSite.ServeHTTP(w, req)
}

// TestWriteReleases: a handler that can release what it prepared is told
// of every exported path once, after it is written.
func TestWriteReleases(t *testing.T) {
	paths := slices.Clone(fakePaths)
	for i := range 1000 { // many runs of paths for the two workers
		paths = append(paths, fmt.Sprintf("/blog/p%d.md", i))
	}
	h := &releasingSite{paths: paths, released: map[string]int{}}
	if _, err := Write(filepath.Join(t.TempDir(), "public"), h, paths, fakeOptions); err != nil {
		t.Fatal(err)
	}
	for _, p := range paths {
		if h.released[p] != 1 {
			t.Errorf("%s released %d times, want once", p, h.released[p])
		}
	}
	if len(h.released) != len(paths) {
		t.Errorf("%d paths released, want %d", len(h.released), len(paths))
	}
	if len(h.late) > 0 {
		t.Errorf("%d requests came after their path or a neighbour was released, e.g. %s", len(h.late), h.late[0])
	}
}

// TestWriterMkdir: a file's folder is made with the folders above it
// that are missing, once; a folder another worker made is fine; a file
// where a folder goes is an error naming it.
func TestWriterMkdir(t *testing.T) {
	root := t.TempDir()
	w := &writer{dir: root}
	deep := filepath.Join(root, "a", "b", "c")
	for range 2 {
		if err := w.mkdir(deep); err != nil {
			t.Fatal(err)
		}
	}
	if info, err := os.Stat(deep); err != nil || !info.IsDir() {
		t.Fatalf("%s: %v", deep, err)
	}
	for _, d := range []string{filepath.Join(root, "a"), filepath.Join(root, "a", "b"), deep} {
		if _, ok := w.made.Load(d); !ok {
			t.Errorf("%s made but not remembered", d)
		}
	}
	other := filepath.Join(root, "x", "y")
	if err := os.MkdirAll(other, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := w.mkdir(other); err != nil {
		t.Errorf("a folder already made: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := w.mkdir(filepath.Join(root, "f")); err == nil || !strings.Contains(err.Error(), filepath.Join(root, "f")) {
		t.Errorf("a file where the folder goes: err = %v, want one naming it", err)
	}
	if err := w.mkdir(filepath.Join(root, "f", "g")); err == nil {
		t.Error("a folder below a file: no error")
	}
}

// TestWriteCollisionOverPrevious: over a previous export, paths as many
// as the previous build's, all of them its own, but one twice, are
// refused as in a cold build.
func TestWriteCollisionOverPrevious(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Write(out, fakeSite{}, fakePaths, fakeOptions); err != nil {
		t.Fatal(err)
	}
	paths := slices.Clone(fakePaths)
	paths[slices.Index(paths, "/blog.md")] = "/blog/"
	if _, err := Write(out, fakeSite{}, paths, fakeOptions); err == nil || !strings.Contains(err.Error(), "both map to the file blog/index.html") {
		t.Fatalf("a path twice over a previous export: %v, want both named", err)
	}
}

// TestWriteReleasesAsked: over a previous export, a path whose files are
// kept without asking the handler is not released; the others are.
func TestWriteReleasesAsked(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	opts := fakeOptions
	opts.Fingerprint = func(p string, _ func(string) ([sha256.Size]byte, int, bool)) (Print, bool) {
		return Print{Sum: sha256.Sum256([]byte(p))}, p != "/blog/"
	}
	if _, err := Write(out, fakeSite{}, fakePaths, opts); err != nil {
		t.Fatal(err)
	}
	h := &releasingSite{paths: fakePaths, released: map[string]int{}}
	if _, err := Write(out, h, fakePaths, opts); err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"/blog/": 1}; !maps.Equal(h.released, want) {
		t.Errorf("released %v, want %v", h.released, want)
	}
}

// TestWriteSameShape: over a previous export of the same shape
// (Options.Shape), a path whose recorded fingerprint was made of no body
// keeps it without Fingerprint being asked, one made of a post's body is
// asked of Refingerprint, one made of several posts' bodies of
// Fingerprint; a new Refingerprint asks the handler again; another shape
// asks Fingerprint of every path. The folder is the same either way.
func TestWriteSameShape(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	var (
		mu            sync.Mutex
		shape         = [sha256.Size]byte{1}
		body          = "one"
		asked, reused []string
	)
	print := func(p string) Print {
		pr := Print{Sum: sha256.Sum256([]byte(string(shape[:]) + p))}
		switch p {
		case "/blog/", "/blog.md":
			pr.Post = "blog/x.md"
			pr.Sum = sha256.Sum256([]byte(string(shape[:]) + p + body))
		case "/api/posts.json":
			pr.Posts = true
		}
		return pr
	}
	opts := fakeOptions
	opts.Fingerprint = func(p string, _ func(string) ([sha256.Size]byte, int, bool)) (Print, bool) {
		mu.Lock()
		defer mu.Unlock()
		asked = append(asked, p)
		return print(p), p != "/blog/caf%C3%A9/photo.png"
	}
	opts.Shape = func() [sha256.Size]byte {
		mu.Lock()
		defer mu.Unlock()
		return shape
	}
	opts.Refingerprint = func(p, post string) ([sha256.Size]byte, bool) {
		mu.Lock()
		defer mu.Unlock()
		if post != "blog/x.md" {
			t.Errorf("Refingerprint(%s, %s), want the post blog/x.md", p, post)
		}
		reused = append(reused, p)
		return print(p).Sum, true
	}
	h := &releasingSite{paths: fakePaths, released: map[string]int{}}
	build := func(step string, wantAsked, wantReused, wantReleased []string) {
		t.Helper()
		asked, reused, h.released = nil, nil, map[string]int{}
		if _, err := Write(out, h, fakePaths, opts); err != nil {
			t.Fatal(err)
		}
		slices.Sort(asked)
		slices.Sort(reused)
		released := slices.Sorted(maps.Keys(h.released))
		if !slices.Equal(asked, wantAsked) || !slices.Equal(reused, wantReused) || !slices.Equal(released, wantReleased) {
			t.Errorf("%s: Fingerprint asked of %q, Refingerprint of %q, handler of %q; want %q, %q, %q",
				step, asked, reused, released, wantAsked, wantReused, wantReleased)
		}
		cold := filepath.Join(t.TempDir(), "public")
		if _, err := Write(cold, h, fakePaths, Options{NotFound: opts.NotFound, Redirects: opts.Redirects}); err != nil {
			t.Fatal(err)
		}
		sameFiles(t, out, cold)
	}
	all := slices.Sorted(slices.Values(fakePaths))
	build("cold", all, nil, all)
	build("the same shape", []string{"/api/posts.json", "/blog/caf%C3%A9/photo.png"}, []string{"/blog.md", "/blog/"},
		[]string{"/blog/caf%C3%A9/photo.png"})
	mu.Lock()
	body = "two"
	mu.Unlock()
	build("a post's body", []string{"/api/posts.json", "/blog/caf%C3%A9/photo.png"}, []string{"/blog.md", "/blog/"},
		[]string{"/blog.md", "/blog/", "/blog/caf%C3%A9/photo.png"})
	mu.Lock()
	shape = [sha256.Size]byte{2}
	mu.Unlock()
	build("another shape", all, nil, all)
}

// sameFiles fails unless the folders a and b hold the same files with the
// same bytes.
func sameFiles(t *testing.T, a, b string) {
	t.Helper()
	read := func(root string) map[string]string {
		out := map[string]string{}
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(p)
			rel, _ := filepath.Rel(root, p)
			out[filepath.ToSlash(rel)] = string(data)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if fa, fb := read(a), read(b); !maps.Equal(fa, fb) {
		t.Errorf("%s and %s differ: %d and %d files", a, b, len(fa), len(fb))
	}
}

// TestLinkMarkdown: a page that negotiates is linked to the route whose
// body its Markdown answer is: the route after it when that is the one,
// else whichever route has that body (the last of several); a page whose
// answer is no route's body fails the export.
func TestLinkMarkdown(t *testing.T) {
	sum := func(s string) [sha256.Size]byte { return sha256.Sum256([]byte(s)) }
	page := func(path, md string) File {
		return File{Path: path, sum: sum("<html>" + path), MarkdownHeader: http.Header{}, mdSum: sum(md)}
	}
	route := func(path, body string) File { return File{Path: path, sum: sum(body)} }
	for _, tc := range []struct {
		name  string
		files []File
		want  map[string]string // page → its Markdown route
		err   bool
	}{
		{"twin after its page", []File{page("/a/", "A"), route("/a.md", "A"), page("/b/", "B"), route("/b.md", "B")},
			map[string]string{"/a/": "/a.md", "/b/": "/b.md"}, false},
		{"twin elsewhere", []File{route("/b.md", "B"), page("/a/", "A"), route("/x", "X"), page("/b/", "B"), route("/a.md", "A")},
			map[string]string{"/a/": "/a.md", "/b/": "/b.md"}, false},
		{"the last of two with the body", []File{page("/a/", "A"), route("/x", "X"), route("/a.md", "A"), route("/copy.md", "A")},
			map[string]string{"/a/": "/copy.md"}, false},
		{"no route with the body", []File{page("/a/", "A"), route("/a.md", "other")}, nil, true},
	} {
		err := linkMarkdown(tc.files)
		if (err != nil) != tc.err {
			t.Errorf("%s: error %v, want one: %v", tc.name, err, tc.err)
			continue
		}
		for _, f := range tc.files {
			if want, isPage := tc.want[f.Path]; isPage && f.Markdown != want {
				t.Errorf("%s: %s linked to %q, want %q", tc.name, f.Path, f.Markdown, want)
			}
		}
	}
}
