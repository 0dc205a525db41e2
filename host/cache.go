package host

import (
	"crypto/sha256"
	"io"

	"folio/internal/digest"
	"folio/pipeline"
	"folio/render"
)

// cacheKey is what a parse of the site's files depends on beyond their
// bytes (see pipeline.Cache): the program, the whole config, the
// options, and the site's templates, which make the descriptions of
// posts without one. A cache made under any other is not read.
func cacheKey(cfg *pipeline.Config, opts pipeline.Options, ropts render.Options) [sha256.Size]byte {
	h := sha256.New()
	io.WriteString(h, "folio parse cache\x00")
	prog := digest.Program()
	h.Write(prog[:])
	digest.Write(h, cfg, nil)
	digest.Write(h, [...]any{opts.Root, opts.Drafts, opts.Describe != nil}, nil)
	if t := ropts.Templates; t != nil {
		ts := t.Sum()
		h.Write(ts[:])
	}
	var key [sha256.Size]byte
	h.Sum(key[:0])
	return key
}
