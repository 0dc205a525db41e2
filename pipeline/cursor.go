package pipeline

import (
	"encoding/base64"
	"encoding/binary"
	"errors"
	"hash/fnv"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"
)

// Cursors are keyset positions: a token names the (publish date, slug) of
// the last post of the previous page, so adding or removing posts during a
// walk never skips or repeats one that stayed. A token depends on nothing
// else, so serve, build and a restart issue the same tokens.
//
// Layout before base64url (no padding): one tag byte, the publish date as
// 8 big-endian bytes of Unix seconds, then the slug. Slugs too long for the
// 128-character limit are cut and followed by an FNV-64a hash of the whole
// slug (tag 'h' instead of 'k').

// FirstCursor names the first page.
const FirstCursor = "0"

// ErrBadCursor is returned for a cursor that is malformed or does not decode.
var ErrBadCursor = errors.New("malformed cursor")

// CursorPattern is the pattern every cursor matches.
const CursorPattern = `^[A-Za-z0-9_-]{1,128}$`

var cursorRE = regexp.MustCompile(CursorPattern)

// CursorSyntax reports whether tok is made of the characters a cursor
// may have, in the number it may have them (CursorPattern). A token that
// passes may still not decode.
func CursorSyntax(tok string) bool { return cursorRE.MatchString(tok) }

const (
	maxTokenBytes = 96 // 128 base64 characters
	headerBytes   = 9
	hashBytes     = 8
)

type position struct {
	date   int64
	slug   string // whole slug, or its prefix when hashed
	hashed bool
	sum    uint64
}

// CursorFor returns the token naming the position just after p.
func CursorFor(p *Post) string {
	b := make([]byte, 0, maxTokenBytes)
	slug := p.Slug
	tag := byte('k')
	if headerBytes+len(slug) > maxTokenBytes {
		tag = 'h'
		slug = truncateUTF8(slug, maxTokenBytes-headerBytes-hashBytes)
	}
	b = append(b, tag)
	b = binary.BigEndian.AppendUint64(b, uint64(p.Date.Unix()))
	b = append(b, slug...)
	if tag == 'h' {
		b = binary.BigEndian.AppendUint64(b, slugHash(p.Slug))
	}
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeCursor(tok string) (position, error) {
	if !cursorRE.MatchString(tok) {
		return position{}, ErrBadCursor
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(tok)
	if err != nil || len(b) < headerBytes+1 {
		return position{}, ErrBadCursor
	}
	pos := position{date: int64(binary.BigEndian.Uint64(b[1:headerBytes]))}
	rest := b[headerBytes:]
	switch b[0] {
	case 'k':
	case 'h':
		if len(rest) < hashBytes+1 {
			return position{}, ErrBadCursor
		}
		pos.hashed = true
		pos.sum = binary.BigEndian.Uint64(rest[len(rest)-hashBytes:])
		rest = rest[:len(rest)-hashBytes]
	default:
		return position{}, ErrBadCursor
	}
	if !utf8.Valid(rest) {
		return position{}, ErrBadCursor
	}
	pos.slug = string(rest)
	return pos, nil
}

// after reports whether p comes after the position in contract order.
func (pos position) after(p *Post) bool {
	d := p.Date.Unix()
	if d != pos.date {
		return d < pos.date
	}
	if !pos.hashed || !strings.HasPrefix(p.Slug, pos.slug) {
		return p.Slug > pos.slug
	}
	// Same date and prefix as a cut slug: compare whole slugs when the
	// named post is still here (the caller resolves it); otherwise err on
	// the side of repeating rather than skipping.
	return p.Slug > pos.slug && slugHash(p.Slug) != pos.sum
}

// Page returns the posts after cursor (at most size of them) and the token
// for the next page, "" when this page is the last. A size below 1 counts
// as 1.
func (s *Snapshot) Page(cursor string, size int) ([]*Post, string, error) {
	size = max(size, 1)
	start := 0
	if cursor != FirstCursor {
		pos, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		start = s.startAfter(pos)
	}
	end := min(start+size, len(s.Posts))
	items := s.Posts[start:end]
	if end >= len(s.Posts) || len(items) == 0 {
		return items, "", nil
	}
	return items, CursorFor(items[len(items)-1]), nil
}

func (s *Snapshot) startAfter(pos position) int {
	if pos.hashed {
		// Resolve a cut slug to the whole one when its post still exists.
		for _, p := range s.Posts {
			if p.Date.Unix() == pos.date && slugHash(p.Slug) == pos.sum && strings.HasPrefix(p.Slug, pos.slug) {
				pos = position{date: pos.date, slug: p.Slug}
				break
			}
		}
	}
	return sort.Search(len(s.Posts), func(i int) bool { return pos.after(s.Posts[i]) })
}

// Cursors lists every token a walk from FirstCursor issues, first included.
// A size below 1 counts as 1, as in Page.
func (s *Snapshot) Cursors(size int) []string {
	size = max(size, 1)
	out := []string{FirstCursor}
	for i := size; i < len(s.Posts); i += size {
		out = append(out, CursorFor(s.Posts[i-1]))
	}
	return out
}

func slugHash(s string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(s))
	return h.Sum64()
}

func truncateUTF8(s string, n int) string {
	for n > 0 && n < len(s) && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
