package render

import "folio/pipeline"

// A Resolver finds the posts that links and ref shortcodes name. The
// renderer decides what a reference means (see the package doc); the
// resolver only looks up. A nil post means there is no such post; visible
// reports whether the snapshot being rendered shows it.
type Resolver interface {
	// File finds the post read from a content file, named by its
	// slash-separated path inside the content folder: "blog/other.md",
	// "blog/trip/index.md".
	File(path string) (p *pipeline.Post, visible bool)
	// Slug finds the post with this (unescaped) slug.
	Slug(slug string) (p *pipeline.Post, visible bool)
}

// A Ref is one lookup a rendering made and its answer. One of File and
// Slug is set.
type Ref struct {
	File    string
	Slug    string
	Post    *pipeline.Post
	Visible bool
}

func (r Ref) answers(res Resolver) bool {
	var p *pipeline.Post
	var visible bool
	if r.File != "" {
		p, visible = res.File(r.File)
	} else {
		p, visible = res.Slug(r.Slug)
	}
	return p == r.Post && visible == r.Visible
}

// An Index is a Resolver over a list of posts. Give it every parsed post,
// visible or not, so that a link to an unpublished post is reported as
// such; posts it does not hold are "no such post", which renders the same.
type Index struct {
	byFile  map[string]*pipeline.Post
	bySlug  map[string]*pipeline.Post
	visible func(*pipeline.Post) bool
}

// NewIndex indexes posts by file and slug. visible tells which posts are
// shown (for a snapshot s, s.Visible); nil means all of them. When two
// posts share a slug, a visible one wins.
func NewIndex(posts []*pipeline.Post, visible func(*pipeline.Post) bool) *Index {
	if visible == nil {
		visible = func(*pipeline.Post) bool { return true }
	}
	ix := &Index{
		byFile:  make(map[string]*pipeline.Post, len(posts)),
		bySlug:  make(map[string]*pipeline.Post, len(posts)),
		visible: visible,
	}
	for _, p := range posts {
		ix.byFile[p.File] = p
		if old, ok := ix.bySlug[p.Slug]; !ok || (!visible(old) && visible(p)) {
			ix.bySlug[p.Slug] = p
		}
	}
	return ix
}

// File implements Resolver.
func (ix *Index) File(path string) (*pipeline.Post, bool) { return ix.answer(ix.byFile[path]) }

// Slug implements Resolver.
func (ix *Index) Slug(slug string) (*pipeline.Post, bool) { return ix.answer(ix.bySlug[slug]) }

func (ix *Index) answer(p *pipeline.Post) (*pipeline.Post, bool) {
	if p == nil {
		return nil, false
	}
	return p, ix.visible(p)
}

// noPosts is the Resolver of Render(p, nil).
type noPosts struct{}

func (noPosts) File(string) (*pipeline.Post, bool) { return nil, false }
func (noPosts) Slug(string) (*pipeline.Post, bool) { return nil, false }

// ForSnapshot is what renders snap's posts as the site shows them: a
// Renderer for its configuration and an index that knows every post but
// resolves links only to the visible ones, so a link to a post that is not
// published is reported as such. The server and folio check both use it,
// so they find the same problems.
func ForSnapshot(snap *pipeline.Snapshot) (*Renderer, *Index) {
	cfg := snap.Config()
	return New(Options{BaseURL: cfg.BaseURL, Section: cfg.Section, Unsafe: cfg.Markup.Unsafe, Markup: MarkupOf(cfg)}),
		NewIndex(snap.AllPosts(), snap.Visible)
}
