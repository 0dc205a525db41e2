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
//
// A cut token alone does not say where its post sat among posts sharing
// its date and cut prefix once that post is gone. The whole slug is found,
// in this order: in the process's memory of the cut tokens it issued
// (cursor_memory.go), so a walk served by one process is exact whatever
// changes; among the snapshot's posts, by the hash, while the post exists;
// otherwise (the token came from before a restart or from a static build,
// and its post was removed since) the position is taken to be the cut
// prefix itself: the page starts at the first post of that date whose slug
// sorts after the prefix. Every post sharing the date and prefix is then
// returned, so the ones that sorted before the removed post are repeated
// and none is skipped; repeating is chosen over skipping because a client
// can drop a post it already has (by slug) but cannot learn of one it
// never got.

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

// CursorFor returns the token naming the position just after p. The
// process remembers the whole slug behind a cut token (cursor_memory.go).
func CursorFor(p *Post) string { return issued.cursorFor(p) }

// encodeCursor returns the token naming the position just after p and
// whether p's slug was cut to fit.
func encodeCursor(p *Post) (tok string, cut bool) {
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
	return base64.RawURLEncoding.EncodeToString(b), tag == 'h'
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
// A cut position not resolved to its whole slug compares as its prefix
// (see the top of this file).
func (pos position) after(p *Post) bool {
	if d := p.Date.Unix(); d != pos.date {
		return d < pos.date
	}
	return p.Slug > pos.slug
}

// Page returns the posts after cursor (at most size of them) and the token
// for the next page, "" when this page is the last. A size below 1 counts
// as 1.
func (s *Snapshot) Page(cursor string, size int) ([]*Post, string, error) {
	return s.page(cursor, size, &issued)
}

// page is Page with the memory of issued cut tokens as a parameter, so
// that tests can stand for a process that never issued them.
func (s *Snapshot) page(cursor string, size int, mem *cursorMemory) ([]*Post, string, error) {
	size = max(size, 1)
	start := 0
	if cursor != FirstCursor {
		pos, err := decodeCursor(cursor)
		if err != nil {
			return nil, "", err
		}
		if pos.hashed {
			pos.slug = s.wholeSlug(cursor, pos, mem)
		}
		start = s.search(pos)
	}
	end := min(start+size, len(s.posts))
	items := s.posts[start:end]
	if end >= len(s.posts) || len(items) == 0 {
		return items, "", nil
	}
	return items, mem.cursorFor(items[len(items)-1]), nil
}

// search returns the index of the first post after pos.
func (s *Snapshot) search(pos position) int {
	return sort.Search(len(s.posts), func(i int) bool { return pos.after(s.posts[i]) })
}

// wholeSlug returns the slug the cut token tok (decoded as pos) was made
// from: as this process remembers it, else as a post of s with the same
// date, prefix and hash has it, else the prefix (see the top of this
// file). Of two slugs with one token (a hash collision), the one sorting
// first is taken, which can repeat posts but not skip them.
func (s *Snapshot) wholeSlug(tok string, pos position, mem *cursorMemory) string {
	if slug, ok := mem.recall(tok); ok {
		return slug
	}
	for _, p := range s.posts[s.search(pos):] {
		if p.Date.Unix() != pos.date || !strings.HasPrefix(p.Slug, pos.slug) {
			break
		}
		if slugHash(p.Slug) == pos.sum {
			return p.Slug
		}
	}
	return pos.slug
}

// Cursors lists every token a walk from FirstCursor issues, first included.
// A size below 1 counts as 1, as in Page.
func (s *Snapshot) Cursors(size int) []string {
	size = max(size, 1)
	out := []string{FirstCursor}
	for i := size; i < len(s.posts); i += size {
		out = append(out, CursorFor(s.posts[i-1]))
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
