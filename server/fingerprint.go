package server

import (
	"crypto/sha256"
	"io"
	"io/fs"
	"net/url"
	"os"
	"reflect"
	"slices"
	"sync"

	"folio/internal/digest"
	"folio/pipeline"
	"folio/render"
)

// Fingerprint says of an exported path a value that changes whenever the
// server's answers for it may (the static export keeps the files of a
// path whose fingerprint is the previous build's without asking for them;
// export.Options.Fingerprint). ok is false for paths it cannot say this
// of, which are asked each time: the site's files, read from disk.
//
// Everything the server makes is made from the snapshot, the theme and
// the program. The snapshot splits in two: the posts' bodies, and the
// rest (the configuration, every page's and post's fields, every route):
// the site's shape. Only a post's own page and Markdown twin, and
// llms-full.txt, which holds the newest twins, are made from bodies (the
// render context's templates aside, which the shape's digest includes);
// every other answer is made from the shape alone, unless the site's
// templates count words (.WordCount, .ReadingTime: of other pages too,
// in a shortcode), when every body is in the shape. So:
//
//   - every fingerprint includes the program, the theme, the Hugo site's
//     own templates, i18n and data, and the shape;
//   - a post's page and twin add that post's body and its bundle's files;
//   - llms-full.txt adds the bodies of the posts it is made of.
//
// An edit of a post's body changes its own page and twin, and
// llms-full.txt when the post is among those it is made of;
// any other change (a title, a new post, the config, the theme) changes
// every fingerprint, and every path is asked again (the export still
// writes only the files whose bytes differ).
//
// prev, when not nil, says what the previous build recorded of a path:
// its fingerprint and its body's length (ok false: nothing). Finding
// which posts llms-full.txt is made of takes the length of their twins;
// a twin whose fingerprint is the one recorded has the length recorded,
// and is not rendered for it.
func (s *Server) Fingerprint(urlPath string, prev Recorded) (fp [sha256.Size]byte, ok bool) {
	fp, _, _, ok = s.FingerprintOf(urlPath, prev)
	return fp, ok
}

// FingerprintOf is Fingerprint, and whose bodies the fingerprint is made
// of besides the shape: post, the file of the one post whose page or
// twin urlPath is; many, several posts' (llms-full.txt's); neither, none.
func (s *Server) FingerprintOf(urlPath string, prev Recorded) (fp [sha256.Size]byte, post string, many, ok bool) {
	st := s.current.Load()
	return s.fingerprint(st, s.digest(st), urlPath, prev)
}

// digest is the state's siteDigest, made once.
func (s *Server) digest(st *state) *siteDigest {
	return stateValue(st, "digest", func() *siteDigest { return newSiteDigest(s, st) })
}

// Shape is the digest every fingerprint is made from (see Fingerprint):
// of the program, the theme and the snapshot but for the posts' bodies.
// Two states of one Shape differ at most in their posts' bodies, and
// then only in the answers made of them: of a path whose fingerprint was
// made of no body it says the fingerprint is the same; of one made of one
// post's body, Refingerprint says it without looking the path up.
func (s *Server) Shape() [sha256.Size]byte {
	return s.digest(s.current.Load()).shape
}

// Refingerprint is the fingerprint of urlPath, a page or twin of the post
// of the file post (FingerprintOf said so in a state of this Shape),
// made of the shape, the path and the post's body as they are now. ok is
// false when there is no such post.
func (s *Server) Refingerprint(urlPath, post string) (fp [sha256.Size]byte, ok bool) {
	st := s.current.Load()
	p := st.snap.PostOfFile(post)
	if p == nil {
		return fp, false
	}
	d := s.digest(st)
	b := d.body(p)
	return d.sum(urlPath, b[:]), true
}

// sum is a fingerprint: the shape, the path, and what else it is made of.
// (A build after a one-post edit makes 20,000 of them: the bytes go
// through a buffer on the stack, not a hash and a string of their own.)
func (d *siteDigest) sum(urlPath string, part []byte) (fp [sha256.Size]byte) {
	var buf [256]byte
	if len(d.shape)+len(urlPath)+1+len(part) <= len(buf) {
		b := append(append(append(append(buf[:0], d.shape[:]...), urlPath...), 0), part...)
		return sha256.Sum256(b)
	}
	h := sha256.New()
	h.Write(d.shape[:])
	io.WriteString(h, urlPath)
	h.Write([]byte{0})
	h.Write(part)
	h.Sum(fp[:0])
	return fp
}

// fingerprint is FingerprintOf in the state st, whose digest is d.
func (s *Server) fingerprint(st *state, d *siteDigest, urlPath string, prev Recorded) (fp [sha256.Size]byte, post string, many, ok bool) {
	u, err := url.Parse(urlPath)
	if err != nil {
		return fp, "", false, false
	}
	m := st.routes.find(st, routingPathOf(u))
	var part []byte
	switch m.route.Kind {
	case KindPage, KindMarkdown:
		if p := postOf(m); p != nil {
			b := d.body(p)
			part, post = b[:], p.File
		}
	case KindLLMs:
		if urlPath == "/llms-full.txt" {
			b, ok := d.llmsFull(s, st, prev)
			if !ok {
				return fp, "", false, false
			}
			part, many = b[:], true
		}
	case KindHome, KindPosts, KindCursorPage, KindAPIPage, KindOpenAPI, KindFeed, KindSitemap,
		KindRobots, KindCatalog, KindSkills, KindSDK, KindAsset, KindNotFound,
		// An alias's 301, and the page the export makes of it
		// (export.AliasPage): its target and language are the shape's.
		KindAlias:
	default:
		return fp, "", false, false
	}
	return d.sum(urlPath, part), post, many, true
}

// Recorded says what the previous build recorded of an exported path:
// its fingerprint and its plain body's length (ok false: nothing).
type Recorded = func(urlPath string) (fp [sha256.Size]byte, size int, ok bool)

// postOf is the post whose page or twin m is, nil for any other page.
func postOf(m match) *pipeline.Post {
	if m.post != nil {
		return m.post
	}
	if pg := m.site.Page; pg != nil && pg.Kind == pipeline.KindPage {
		return pg.Post
	}
	return nil
}

// A siteDigest is a state's shape (see Fingerprint) and its posts'
// bodies, each hashed once.
type siteDigest struct {
	shape  [sha256.Size]byte
	snap   *pipeline.Snapshot
	fsys   fs.FS
	mu     sync.Mutex
	bodyOf map[*pipeline.Post][sha256.Size]byte
	all    [sha256.Size]byte // llmsFull's
	allOK  bool
	once   sync.Once
}

// The fields a digest leaves out: a post's body (hashed apart), its
// per-process hash, and a page's lists and post (written by path).
var (
	postType = reflect.TypeFor[pipeline.Post]()
	pageType = reflect.TypeFor[pipeline.Page]()
)

func skipShape(t reflect.Type, field string) bool {
	switch t {
	case postType:
		return field == "Body" || field == "BodyLine" || field == "Hash"
	case pageType:
		return field == "Pages" || field == "Sections" || field == "Post"
	}
	return false
}

func newSiteDigest(s *Server, st *state) *siteDigest {
	snap, cfg := st.snap, st.snap.Config()
	h := sha256.New()
	prog := digest.Program()
	h.Write(prog[:])
	h.Write(st.theme.sum[:])
	var site fs.FS
	if cfg.Source != "" {
		site = os.DirFS(cfg.Source)
	}
	t := render.OptionsFor(cfg, site).Templates
	if t != nil {
		ts := t.Sum()
		h.Write(ts[:])
	}
	// The posts' part is hashed on a goroutine of its own meanwhile, and
	// its digest written after the pages: at 10,000 posts each part is
	// some 15-25 ms of CPU, and the shape is what the writers wait for.
	posts := make(chan [sha256.Size]byte, 1)
	go func() { posts <- postsDigest(snap) }()
	w := digest.NewStream(h, skipShape)
	w.Value(s.opts.Dev)
	w.Value(s.opts.Hosts)
	w.Value(cfg)
	for r := range snap.EachRoute() { // sorted by path
		var page string
		if r.Page != nil {
			page = r.Page.Path
		}
		// Written field by field: 29,000 routes through reflection
		// took a tenth of a second.
		w.String(r.Path)
		w.Uint(uint64(r.Kind))
		w.Uint(uint64(r.Pager))
		w.String(r.Target)
		w.String(r.File)
		w.String(page)
	}
	pages := snap.Pages()
	index := make(map[*pipeline.Page]uint64, len(pages))
	for i, pg := range pages {
		index[pg] = uint64(i)
	}
	for _, pg := range pages {
		w.Value(pg)
		pageRefs(w, pg, index)
	}
	ps := <-posts
	w.String(string(ps[:]))
	d := &siteDigest{snap: snap, fsys: snap.FS(), bodyOf: make(map[*pipeline.Post][sha256.Size]byte, len(snap.AllPosts()))}
	if t.CountsWords() {
		// A template counts words in pages' bodies, maybe other pages'
		// (a shortcode listing site.RegularPages with .WordCount): every
		// answer is then made from every body.
		for _, p := range snap.AllPosts() {
			b := d.body(p)
			w.String(string(b[:]))
		}
	}
	w.Flush()
	h.Sum(d.shape[:0])
	return d
}

// postsDigest is the shape's part of the posts: each one's fields but
// its body, whether it is visible at the snapshot's instant, and the
// files of those published, in order.
func postsDigest(snap *pipeline.Snapshot) (sum [sha256.Size]byte) {
	h := sha256.New()
	w := digest.NewStream(h, skipShape)
	for _, p := range snap.AllPosts() {
		// A post's fields from its encoding in the parse cache, the
		// body left out (reflection over 10,000 posts took 0.06 s).
		if f, ok := snap.FieldsDigest(p); ok {
			w.Uint(1)
			w.String(string(f[:]))
		} else {
			w.Uint(0)
			w.Value(p)
		}
		if snap.Visible(p) {
			w.Uint(1)
		} else {
			w.Uint(0)
		}
	}
	for _, p := range snap.Posts() {
		w.String(p.File)
	}
	w.Flush()
	h.Sum(sum[:0])
	return sum
}

// pageRefs writes what a page lists and its post: each page listed by
// its place in the snapshot's pages (index), whose every field the shape
// has, else by path, kind and language (strings after their lengths,
// so no two lists write alike). At 10,000 posts the lists hold some
// 60,000 pages; their three strings each took 15 ms.
func pageRefs(w *digest.Stream, pg *pipeline.Page, index map[*pipeline.Page]uint64) {
	if pg.Post != nil {
		w.Uint(1)
		w.String(pg.Post.File)
	} else {
		w.Uint(0)
	}
	w.Uint(uint64(len(pg.Pages)))
	for _, q := range pg.Pages {
		pageRef(w, q, index)
	}
	w.Uint(uint64(len(pg.Sections)))
	for _, q := range pg.Sections {
		pageRef(w, q, index)
	}
}

// pageRef writes one page a list holds (pageRefs): its place in index,
// else a number no place has and its path, kind and language.
func pageRef(w *digest.Stream, q *pipeline.Page, index map[*pipeline.Page]uint64) {
	if i, ok := index[q]; ok {
		w.Uint(i)
		return
	}
	w.Uint(^uint64(0))
	w.String(q.Path)
	w.String(q.Kind)
	w.String(q.Lang)
}

// body is the digest of p's body and of its bundle's files (their names,
// sizes and times, or bytes where the file system has no times). The
// body is said by what it was parsed from (SourceSum) where the snapshot
// knows it, else node by node: hashing 10,000 bodies' nodes took a build
// after a one-post edit 0.06 s.
func (d *siteDigest) body(p *pipeline.Post) [sha256.Size]byte {
	d.mu.Lock()
	b, ok := d.bodyOf[p]
	d.mu.Unlock()
	if ok {
		return b
	}
	if key, file, ok := d.snap.SourceOf(p); ok && len(p.Resources) == 0 && len(p.ContentFiles) == 0 {
		// No bundle's files: what it was parsed from says it all, hashed
		// once (a build after a one-post edit says 10,000 bodies).
		b = sourceDigest(key, file, p.File)
		d.mu.Lock()
		d.bodyOf[p] = b
		d.mu.Unlock()
		return b
	}
	h := sha256.New()
	w := digest.NewStream(h, nil)
	if src, ok := d.snap.SourceSum(p); ok {
		// Parsed from the same bytes as then: the same body.
		w.Uint(1)
		w.String(string(src[:]))
	} else {
		w.Uint(0)
		bodyDigest(w, p.Body)
		w.Uint(uint64(p.BodyLine))
	}
	for _, name := range append(slices.Clone(p.Resources), p.ContentFiles...) {
		file := p.Bundle + "/" + name
		w.String(file)
		info, err := fs.Stat(d.fsys, file)
		switch {
		case err != nil:
			w.Uint(0)
			w.String(err.Error())
		case !info.ModTime().IsZero():
			w.Uint(1)
			w.Value([...]any{info.Size(), info.ModTime().UnixNano()})
		default:
			data, err := fs.ReadFile(d.fsys, file)
			w.Uint(2)
			w.Value([...]any{data, err != nil})
		}
	}
	w.Flush()
	h.Sum(b[:0])
	d.mu.Lock()
	d.bodyOf[p] = b
	d.mu.Unlock()
	return b
}

// sourceDigest is body's digest of a post with no bundle's files, parsed
// from the file of the name file whose bytes hashed fileSum, under the
// parse cache's key (pipeline.SourceOf): two posts of one sourceDigest
// parsed alike, body and all. Its bytes start otherwise than the
// stream's of body, so the two never hash alike.
func sourceDigest(key, fileSum [sha256.Size]byte, file string) [sha256.Size]byte {
	const tag = "folio source\x00"
	var buf [512]byte
	if len(tag)+2*sha256.Size+len(file) > len(buf) {
		h := sha256.New()
		io.WriteString(h, tag)
		h.Write(key[:])
		h.Write(fileSum[:])
		io.WriteString(h, file)
		var sum [sha256.Size]byte
		h.Sum(sum[:0])
		return sum
	}
	return sha256.Sum256(append(append(append(append(buf[:0], tag...), key[:]...), fileSum[:]...), file...))
}

// bodyDigest writes a body's nodes into w: their kind, text and line
// straight, the rest of a shortcode's node (its name and arguments)
// through reflection.
func bodyDigest(w *digest.Stream, body []pipeline.Node) {
	w.Uint(uint64(len(body)))
	for i := range body {
		node := &body[i]
		w.Uint(uint64(node.Kind))
		w.String(node.Text)
		w.Uint(uint64(node.Line))
		if node.Kind == pipeline.TextNode {
			continue
		}
		c := *node
		c.Text, c.Inner = "", nil
		w.Value(&c)
		bodyDigest(w, node.Inner)
	}
}

// llmsFull is the digest of the bodies of the posts llms-full.txt is
// made of (llmsFullCut: those it holds and the first it leaves out,
// whose size decides the cut): its bytes are the twins of these posts
// and the shape. Finding them takes the length of their twins: as prev
// recorded it when the twin's fingerprint is the one recorded (its bytes
// are then the recorded ones), else rendered (llms-full.txt, when asked,
// shares the rendering). A body edited further down the list leaves the
// file as it was, and it is not asked again. ok is false when a twin
// fails (the handler is asked, and says so).
func (d *siteDigest) llmsFull(s *Server, st *state, prev Recorded) (sum [sha256.Size]byte, ok bool) {
	d.once.Do(func() {
		_, looked, err := llmsFullCut(st, func(p *pipeline.Post) (int, error) {
			if n, ok := d.recordedTwin(s, st, p, prev); ok {
				return n, nil
			}
			twin, err := s.markdownRep(st, p)
			if err != nil {
				return 0, err
			}
			return len(twin.body), nil
		})
		if err != nil {
			return
		}
		h := sha256.New()
		for _, p := range st.snap.Posts()[:looked] {
			b := d.body(p)
			h.Write(b[:])
		}
		h.Sum(d.all[:0])
		d.allOK = true
	})
	return d.all, d.allOK
}

// recordedTwin is the length of p's twin as prev recorded it, when the
// twin's path answers p's twin and its fingerprint is the one recorded.
func (d *siteDigest) recordedTwin(s *Server, st *state, p *pipeline.Post, prev Recorded) (int, bool) {
	if prev == nil {
		return 0, false
	}
	path := "/" + st.snap.MarkdownURLOf(p)
	u, err := url.Parse(path)
	if err != nil {
		return 0, false
	}
	if m := st.routes.find(st, routingPathOf(u)); m.route.Kind != KindMarkdown || postOf(m) != p {
		return 0, false
	}
	was, size, ok := prev(path)
	if !ok {
		return 0, false
	}
	if now, _, _, ok := s.fingerprint(st, d, path, nil); !ok || now != was {
		return 0, false
	}
	return size, true
}
