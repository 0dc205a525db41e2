package server

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/fnv"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"strings"
	"sync"
	"time"

	"folio/render"
	builtin "folio/site"
)

// A theme is the parsed site folder: one template set per page kind and
// every static asset prepared as a representation. It is loaded once at
// start (and again by SetSite when the site folder changes in dev), so no
// request ever parses a template or hashes a file.
type theme struct {
	pages map[string]*template.Template // by page kind, see pageKinds
	// assets are the files under static/ by their path below it, each
	// under its plain name and its fingerprinted one ("style.css" and
	// "style.1a2b3c4d5e.css"); the fingerprinted ones are immutable.
	assets map[string]*rep
	// hashed maps a plain asset name to its fingerprinted one.
	hashed map[string]string
	sdk    *rep
	loaded time.Time
	// madeSyntax: syntax.css is folio's, made for syntaxStyle (the
	// site's markup.highlight.style, render.HighlightStyle), not the
	// site's own file.
	madeSyntax  bool
	syntaxStyle string
	// sum identifies the site folder: every file's name and bytes.
	sum [sha256.Size]byte
}

// pageKinds are the templates of a site, one file each under templates/,
// each defining "main" (and optionally "head") for the layout in
// templates/base.html. A site folder without one of them gets folio's
// own for that kind, in its layout.
var pageKinds = []string{"home", "directory", "article", "list", "api", "404"}

const (
	sdkPath        = "sdk/blog-client.js"
	syntaxCSS      = "syntax.css" // made from render.HighlightCSS unless the site has one
	immutableCache = "public, max-age=31536000, immutable"
	htmlType       = "text/html; charset=utf-8"
)

// contentTypes is the fixed table of asset types: the server never asks
// the machine's MIME database, so every host answers the same.
var contentTypes = map[string]string{
	".css":   "text/css; charset=utf-8",
	".js":    "text/javascript; charset=utf-8",
	".mjs":   "text/javascript; charset=utf-8",
	".html":  htmlType,
	".txt":   "text/plain; charset=utf-8",
	".md":    "text/markdown; charset=utf-8",
	".json":  "application/json",
	".map":   "application/json",
	".xml":   "application/xml",
	".svg":   "image/svg+xml",
	".png":   "image/png",
	".jpg":   "image/jpeg",
	".jpeg":  "image/jpeg",
	".gif":   "image/gif",
	".webp":  "image/webp",
	".avif":  "image/avif",
	".ico":   "image/x-icon",
	".woff":  "font/woff",
	".woff2": "font/woff2",
	".pdf":   "application/pdf",
	".mp4":   "video/mp4",
	".webm":  "video/webm",
}

// contentType is the type of a file by its extension, from the fixed table;
// anything unknown is application/octet-stream.
func contentType(name string) string {
	if t, ok := contentTypes[strings.ToLower(path.Ext(name))]; ok {
		return t
	}
	return "application/octet-stream"
}

// loadTheme parses the templates and prepares the assets of site, whose
// Last-Modified is loaded. Every error names the file at fault, so a
// broken theme in dev says where.
func loadTheme(site fs.FS, dev bool, loaded time.Time) (*theme, error) {
	if site == nil {
		return nil, errors.New("site: no site folder")
	}
	th := &theme{assets: map[string]*rep{}, hashed: map[string]string{}, loaded: loaded, sum: folderSum(site)}
	if err := th.parseTemplates(site); err != nil {
		return nil, err
	}
	if err := th.loadAssets(site); err != nil {
		return nil, err
	}
	if _, ok := th.assets[syntaxCSS]; !ok {
		// Code blocks carry chroma's classes; their colours come from
		// render, so that a theme gets them without copying them, in
		// folio's own style until a snapshot names one (forStyle).
		th.madeSyntax = true
		th.addAsset(syntaxCSS, []byte(render.HighlightCSSFor("")))
	}
	js, err := fs.ReadFile(site, sdkPath)
	if err != nil {
		return nil, fmt.Errorf("site: %w", err)
	}
	th.sdk = newRep(contentType(sdkPath), js, th.loaded)
	return th, nil
}

// forStyle is the theme with its syntax.css in the chroma style a site
// configured (markup.highlight.style): th itself when the site has its
// own syntax.css or th's is already of that style, else a copy that
// shares everything but that stylesheet.
func (th *theme) forStyle(style string) *theme {
	if !th.madeSyntax || th.syntaxStyle == style {
		return th
	}
	c := *th
	c.assets, c.hashed = maps.Clone(th.assets), maps.Clone(th.hashed)
	delete(c.assets, th.hashed[syntaxCSS])
	c.addAsset(syntaxCSS, []byte(render.HighlightCSSFor(style)))
	c.syntaxStyle = style
	return &c
}

// folderSum hashes every file of fsys, by name and bytes, in order.
func folderSum(fsys fs.FS) (sum [sha256.Size]byte) {
	h := sha256.New()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		fmt.Fprintf(h, "%q %d\n", p, len(data))
		h.Write(data)
		return nil
	})
	if err != nil {
		fmt.Fprintf(h, "error %v %d", err, time.Now().UnixNano()) // never equal to another's
	}
	h.Sum(sum[:0])
	return sum
}

// parseTemplates parses base.html (the layout) once, then each page kind
// on a clone of it, so pages share the layout but not their "main".
func (th *theme) parseTemplates(site fs.FS) error {
	base, err := template.New("base.html").Funcs(templateFuncs).ParseFS(site, "templates/base.html")
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	th.pages = make(map[string]*template.Template, len(pageKinds))
	for _, kind := range pageKinds {
		name := "templates/" + kind + ".html"
		src, err := fs.ReadFile(site, name)
		fallback := errors.Is(err, fs.ErrNotExist)
		if fallback {
			// A site folder made before folio had this kind of page:
			// folio's own template, in the site's layout.
			src, err = fs.ReadFile(builtin.FS, name)
		}
		if err != nil {
			return fmt.Errorf("site: %w", err)
		}
		t, err := base.Clone()
		if err == nil && fallback {
			err = addBuiltinHelpers(t)
		}
		if err == nil {
			t, err = t.New(kind + ".html").Parse(string(src))
		}
		if err != nil {
			return fmt.Errorf("site: %s: %w", name, err)
		}
		if t.Lookup("main") == nil {
			return fmt.Errorf("site: %s: no {{define \"main\"}}", name)
		}
		th.pages[kind] = t
	}
	return nil
}

// addBuiltinHelpers gives t the templates folio's own layout defines for
// its pages ("meta", "item") that t's layout does not, so that folio's
// template for a page kind runs in a site's layout.
func addBuiltinHelpers(t *template.Template) error {
	own, err := template.New("base.html").Funcs(templateFuncs).ParseFS(builtin.FS, "templates/base.html")
	if err != nil {
		return err
	}
	for _, h := range own.Templates() {
		if h.Name() != "base.html" && t.Lookup(h.Name()) == nil {
			if _, err := t.AddParseTree(h.Name(), h.Tree); err != nil {
				return err
			}
		}
	}
	return nil
}

// loadAssets reads every file under static/ and prepares it under its
// plain and fingerprinted names.
func (th *theme) loadAssets(site fs.FS) error {
	err := fs.WalkDir(site, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := fs.ReadFile(site, p)
		if err != nil {
			return err
		}
		th.addAsset(strings.TrimPrefix(p, "static/"), body)
		return nil
	})
	if errors.Is(err, fs.ErrNotExist) {
		return nil // a theme without static files is fine
	}
	if err != nil {
		return fmt.Errorf("site: %w", err)
	}
	return nil
}

// addAsset prepares body under name and under name with a content hash
// before its extension; only the latter may be cached forever.
func (th *theme) addAsset(name string, body []byte) {
	plain := newRep(contentType(name), body, th.loaded)
	th.assets[name] = plain
	hashed := *plain
	hashed.cache = immutableCache
	fp := fingerprint(name, body)
	th.assets[fp] = &hashed
	th.hashed[name] = fp
}

// fingerprint inserts a short hash of body before the extension of name:
// "css/site.css" → "css/site.0123456789.css".
func fingerprint(name string, body []byte) string {
	h := fnv.New64a()
	h.Write(body)
	sum := hex.EncodeToString(h.Sum(nil))[:10]
	ext := path.Ext(name)
	return strings.TrimSuffix(name, ext) + "." + sum + ext
}

// asset returns the served path of a static file, fingerprinted when the
// theme has it ("static/style.0123456789.css"), else the plain path.
func (th *theme) asset(name string) string {
	if fp, ok := th.hashed[name]; ok {
		return "static/" + fp
	}
	return "static/" + name
}

// pageBufs are the buffers pages are executed into. A page grows its
// buffer a dozen times from empty; reusing one and copying the result out
// at its exact size halves the cost of the template.
var pageBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// maxPooledBuf is the largest buffer kept for reuse (a directory page of
// many thousand posts is not).
const maxPooledBuf = 256 << 10

// execute renders page kind with data.
func (th *theme) execute(kind string, data any) ([]byte, error) {
	t, ok := th.pages[kind]
	if !ok {
		return nil, fmt.Errorf("site: no template for %s", kind)
	}
	buf := pageBufs.Get().(*bytes.Buffer)
	buf.Reset()
	defer func() {
		if buf.Cap() <= maxPooledBuf {
			pageBufs.Put(buf)
		}
	}()
	if err := t.ExecuteTemplate(buf, "base.html", data); err != nil {
		return nil, fmt.Errorf("site: %s: %w", kind, err)
	}
	return bytes.Clone(buf.Bytes()), nil
}

// templateFuncs are the helpers templates may call besides the methods of
// the page data.
var templateFuncs = template.FuncMap{
	// isoDate is the machine form for <time datetime>.
	"isoDate": func(t time.Time) string { return t.UTC().Format(time.RFC3339) },
	// date is the human form, in the site's time zone (the caller passes
	// the time already converted).
	"date": func(t time.Time) string { return t.Format("2 January 2006") },
}
