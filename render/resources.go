package render

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // image sizes
	_ "image/jpeg"
	_ "image/png"
	"io/fs"
	"net/url"
	"path"
	"strings"

	"github.com/gobwas/glob"
)

// resources are a page bundle's files as templates see them:
// .Page.Resources, rangeable, with Get, GetMatch, Match and ByType.
type resources []*resource

// resources lists the post's bundle files, made on first use. In a
// multilingual site's model they are its language's, as Hugo 0.165's
// .Resources: of the files of one name with or without their language
// (pic.png, pic.fr.png), the page's own language's, else the first other
// language's that a page publishes, at its URL (pipeline.Snapshot.
// BundleFile); a file no page publishes is none.
func (st *state) resources() resources {
	root := st.root()
	if root.resList == nil {
		root.resList = resources{}
		six, _ := st.res.(*SiteIndex)
		multi := six != nil && len(six.snap.Config().Languages) > 1
		if multi {
			st.remember(Ref{Site: six.snap.ID()})
		}
		for _, name := range root.post.Resources {
			r := &resource{st: root, name: name}
			if multi {
				file, ok := six.snap.BundleFile(root.post, name)
				if !ok || path.Base(file) != path.Base(name) {
					continue // another file of its name is the page's
				}
				r.url = six.url(file)
			}
			root.resList = append(root.resList, r)
		}
		if multi {
			root.resList = append(root.resList, st.translationResources(six)...)
		}
		// Then the content files, as in Hugo: page resources, which have
		// no URL (they are not published).
		for _, name := range root.post.ContentFiles {
			if multi && strings.HasPrefix(name, "index.") {
				continue // a translation's own file (index.fr.md)
			}
			root.resList = append(root.resList, &resource{st: root, name: name, page: true})
		}
	}
	return root.resList
}

// Get finds a file by its path in the bundle.
func (rs resources) Get(name any) *resource {
	n, err := toString(name)
	if err != nil {
		return nil
	}
	n = strings.TrimPrefix(path.Clean(strings.TrimPrefix(n, "./")), "/")
	for _, r := range rs {
		if strings.EqualFold(r.name, n) {
			return r
		}
	}
	// A name without its language ("pic.png" for pic.fr.png).
	if len(rs) > 0 && rs[0].url != "" {
		if six, ok := rs[0].st.res.(*SiteIndex); ok {
			if file, ok := six.snap.BundleFile(rs[0].st.post, n); ok {
				for _, r := range rs {
					if r.url == six.url(file) {
						return r
					}
				}
			}
		}
	}
	return nil
}

// GetMatch finds the first file whose path matches a glob ("images/*",
// "**.jpg"), case-insensitively, as Hugo matches.
func (rs resources) GetMatch(pattern any) *resource {
	if m := rs.Match(pattern); len(m) > 0 {
		return m[0]
	}
	return nil
}

// Match finds every file whose path matches a glob.
func (rs resources) Match(pattern any) resources {
	p, err := toString(pattern)
	if err != nil {
		return nil
	}
	g, err := glob.Compile(strings.ToLower(strings.TrimPrefix(p, "/")), '/')
	if err != nil {
		return nil
	}
	var out resources
	for _, r := range rs {
		if g.Match(strings.ToLower(r.name)) {
			out = append(out, r)
		}
	}
	return out
}

// ByType lists the files of a type: "image", "page", "text", …
func (rs resources) ByType(typ any) resources {
	t, _ := toString(typ)
	var out resources
	for _, r := range rs {
		if r.ResourceType() == t {
			out = append(out, r)
		}
	}
	return out
}

// Len is the number of files.
func (rs resources) Len() int { return len(rs) }

// A resource is one file of the bundle.
type resource struct {
	st   *state
	name string // path in the bundle
	page bool   // a content file: a page resource, never published
	url  string // its URL when it is not beside the page's (resources)
	// bundle is the folder of a translation's bundle it is in, "" for
	// the page's own.
	bundle string

	sized         bool
	width, height int
}

func (r *resource) Name() string  { return r.name }
func (r *resource) Title() string { return r.name }
func (r *resource) Key() string   { return r.RelPermalink() }

// Permalink and RelPermalink are the file's absolute URL, beside its
// page (folio writes every URL of a body absolute).
func (r *resource) Permalink() string {
	if r.page {
		return ""
	}
	if r.url != "" {
		return r.url
	}
	return r.st.pageURL + (&url.URL{Path: r.name}).EscapedPath()
}
func (r *resource) RelPermalink() string { return r.Permalink() }

// ResourceType is the media type's main type, "page" for Markdown.
func (r *resource) ResourceType() string {
	if r.page {
		return "page"
	}
	return r.MediaType().MainType()
}

// MediaType is the file's media type, from its extension.
func (r *resource) MediaType() mediaType {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(r.name), "."))
	if t, ok := mediaTypes[ext]; ok {
		return mediaType(t)
	}
	return "application/octet-stream"
}

// Params are the file's params: none in folio (bundles do not declare
// resources in front matter).
func (r *resource) Params() map[string]any { return map[string]any{} }

// Content is the file's text, read from the content folder.
func (r *resource) Content() (string, error) {
	fsys := r.st.r.opts.Content
	if fsys == nil || r.st.post.Bundle == "" {
		return "", errors.New("resource content: the content folder is not available")
	}
	f, err := fsys.Open(r.file())
	if err != nil {
		return "", fmt.Errorf("resource %s: %w", r.name, err)
	}
	defer f.Close()
	var b bytes.Buffer
	if _, err := b.ReadFrom(&limitReader{f: f, n: maxResourceRead}); err != nil {
		return "", fmt.Errorf("resource %s: %w", r.name, err)
	}
	return b.String(), nil
}

// file is the resource's content file.
func (r *resource) file() string {
	return cmp.Or(r.bundle, r.st.post.Bundle) + "/" + r.name
}

// translationResources are the files of the page's translations'
// bundles in other folders (content mounts of their languages) that the
// page has none of its own of, by name, as Hugo 0.165's .Resources has
// them: each at its URL, the first language's in the languages' order.
func (st *state) translationResources(six *SiteIndex) resources {
	root := st.root()
	pg := six.snap.PageOf(root.post)
	if pg == nil || root.post.Bundle == "" {
		return nil
	}
	have := map[string]bool{}
	for _, r := range root.resList {
		have[strings.ToLower(r.name)] = true
	}
	var out resources
	for _, t := range six.translationsOf(pg) {
		tp := t.Post
		if tp == nil || tp.Bundle == "" || tp.Bundle == root.post.Bundle {
			continue
		}
		for _, name := range tp.Resources {
			if have[strings.ToLower(name)] {
				continue
			}
			if file, ok := six.snap.BundleFile(tp, name); ok && path.Base(file) == path.Base(name) {
				have[strings.ToLower(name)] = true
				out = append(out, &resource{st: root, name: name, url: six.url(file), bundle: tp.Bundle})
			}
		}
	}
	return out
}

// maxResourceRead bounds what .Content reads of a bundle file.
const maxResourceRead = 4 << 20

type limitReader struct {
	f fs.File
	n int
}

func (l *limitReader) Read(p []byte) (int, error) {
	if l.n <= 0 {
		return 0, fmt.Errorf("larger than %d bytes", maxResourceRead)
	}
	if len(p) > l.n {
		p = p[:l.n]
	}
	n, err := l.f.Read(p)
	l.n -= n
	return n, err
}

// Width and Height are an image's size in pixels, 0 when unknown.
func (r *resource) Width() int  { r.size(); return r.width }
func (r *resource) Height() int { r.size(); return r.height }

func (r *resource) size() {
	if r.sized {
		return
	}
	r.sized = true
	fsys := r.st.r.opts.Content
	if fsys == nil || r.st.post.Bundle == "" {
		return
	}
	f, err := fsys.Open(r.file())
	if err != nil {
		return
	}
	defer f.Close()
	if c, _, err := image.DecodeConfig(f); err == nil {
		r.width, r.height = c.Width, c.Height
	}
}

// Resize, Fit, Fill, Crop, Process and Filter are Hugo's image
// processing, which is not folio's: the image is served as it is, and the
// author is told once per page.
func (r *resource) Resize(spec any) *resource  { return r.unprocessed("Resize") }
func (r *resource) Fit(spec any) *resource     { return r.unprocessed("Fit") }
func (r *resource) Fill(spec any) *resource    { return r.unprocessed("Fill") }
func (r *resource) Crop(spec any) *resource    { return r.unprocessed("Crop") }
func (r *resource) Process(spec any) *resource { return r.unprocessed("Process") }
func (r *resource) Filter(f ...any) *resource  { return r.unprocessed("Filter") }

func (r *resource) unprocessed(method string) *resource {
	root := r.st.root()
	if !root.warnedImages {
		root.warnedImages = true
		r.st.warn(root.lastLine, "image processing (%s of %s) is not folio's: the image is served as it is", method, r.name)
	}
	return r
}

// mediaType is a media type as templates see it.
type mediaType string

func (m mediaType) Type() string     { return string(m) }
func (m mediaType) String() string   { return string(m) }
func (m mediaType) MainType() string { t, _, _ := strings.Cut(string(m), "/"); return t }
func (m mediaType) SubType() string  { _, t, _ := strings.Cut(string(m), "/"); return t }

// mediaTypes is a fixed table, not the machine's database; "page" is how
// Hugo types Markdown resources.
var mediaTypes = map[string]string{
	"jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "gif": "image/gif",
	"webp": "image/webp", "svg": "image/svg+xml", "avif": "image/avif", "bmp": "image/bmp", "tif": "image/tiff", "tiff": "image/tiff",
	"md": "page/markdown", "html": "text/html", "txt": "text/plain", "csv": "text/csv", "css": "text/css",
	"js": "text/javascript", "json": "application/json", "xml": "application/xml", "yaml": "application/yaml", "yml": "application/yaml",
	"toml": "application/toml", "pdf": "application/pdf", "zip": "application/zip",
	"mp4": "video/mp4", "webm": "video/webm", "ogv": "video/ogg", "mp3": "audio/mpeg", "ogg": "audio/ogg", "wav": "audio/wav",
	"woff": "font/woff", "woff2": "font/woff2", "ttf": "font/ttf", "otf": "font/otf",
}
