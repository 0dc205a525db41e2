package pipeline

import (
	"slices"
	"sync"
	"time"
	"unique"
	"unsafe"
)

// A snapshot lives as long as the process serves it, and the garbage
// collector marks all of it in every cycle: what a collection costs is
// the number of objects and pointers the posts hold, not the bytes of
// their text. A post as parsed holds many small objects of the same few
// values (the front matter's keys, every post's tags and categories, each
// in its own string and its own interface box), so compactPost makes a
// freshly read post share them: the same values, the same types, fewer
// objects (BENCHMARKS.md, "Serving at the net/http ceiling").
//
// The shared values are interned with package unique, whose table holds
// them weakly: a value is dropped at the first collection after its last
// handle goes, whatever still holds the value itself. A load keeps the
// handles of what it interned (interned) until all its posts are read,
// so that every post of one load shares one copy even when the collector
// runs in between; after it, a tag no post names any more is collected
// with the last post that named it, so a long folio dev session does not
// accumulate them.

// interned keeps the handles of the values one load's worker has
// interned alive, so that a later post naming them gets the same copy:
// without a handle, unique makes a new one after a collection. The load
// keeps each worker's until all of them are done; a nil one keeps none
// (a post compacted alone).
type interned struct {
	strs map[string]unique.Handle[string]
	anys map[string]unique.Handle[any]
}

// str is s's one copy, its handle kept.
func (k *interned) str(s string) string {
	if s == "" {
		return ""
	}
	if k == nil {
		return unique.Make(s).Value()
	}
	if h, ok := k.strs[s]; ok {
		return h.Value()
	}
	h := unique.Make(s)
	v := h.Value()
	if k.strs == nil {
		k.strs = map[string]unique.Handle[string]{}
	}
	k.strs[v] = h
	return v
}

// box is s's one copy in its one interface box, its handle kept.
func (k *interned) box(s string) any {
	if k == nil {
		return unique.Make[any](s).Value()
	}
	if h, ok := k.anys[s]; ok {
		return h.Value()
	}
	h := unique.Make[any](s)
	v := h.Value()
	if k.anys == nil {
		k.anys = map[string]unique.Handle[any]{}
	}
	k.anys[v.(string)] = h
	return v
}

// compactPost makes p, read or decoded and not yet shared with any
// snapshot, hold the front matter's keys, its lists' strings and its
// taxonomy terms as shared values. Nothing a reader sees changes.
func compactPost(p *Post, loc *time.Location, k *interned) {
	if encodeFrontMatter(p, loc); p.Params != nil {
		p.Params = k.compactMap(p.Params, 0)
	}
	p.Tags = k.strings(p.Tags)
	p.Categories = k.strings(p.Categories)
	p.Category = k.str(p.Category)
	if len(p.Terms) == 0 {
		return
	}
	terms := make(map[string][]string, len(p.Terms))
	for name, v := range p.Terms {
		switch {
		case slices.Equal(v, p.Tags):
			v = p.Tags
		case slices.Equal(v, p.Categories):
			v = p.Categories
		default:
			v = k.strings(v)
		}
		terms[k.str(name)] = v
	}
	p.Terms = terms
}

// maxCompactDepth bounds the walk of nested front matter; deeper values
// (which the front matter's own limits make rare) are kept as they are.
const maxCompactDepth = 32

// compactMap is m with its keys interned and its values compacted
// (compactValue); nil for nil.
func (k *interned) compactMap(m map[string]any, depth int) map[string]any {
	if m == nil || depth > maxCompactDepth {
		return m
	}
	out := make(map[string]any, len(m))
	for key, v := range m {
		out[k.str(key)] = k.compactValue(v, depth+1)
	}
	return out
}

// compactValue is v with the maps and lists in it compacted and the
// strings in lists interned, interface box and all: tags, categories,
// aliases and the like repeat from post to post. A map's own string
// values (a title, a date) are mostly unique, so they are kept.
func (k *interned) compactValue(v any, depth int) any {
	switch v := v.(type) {
	case map[string]any:
		return k.compactMap(v, depth)
	case []any:
		if v == nil || depth > maxCompactDepth {
			return v
		}
		out := make([]any, len(v))
		for i, e := range v {
			if s, ok := e.(string); ok {
				out[i] = k.box(s)
			} else {
				out[i] = k.compactValue(e, depth+1)
			}
		}
		return out
	}
	return v
}

// strings is ss with each string the process's one copy of it, in a
// slice of its own length; nil for nil.
func (k *interned) strings(ss []string) []string {
	if ss == nil {
		return nil
	}
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = k.str(s)
	}
	return out
}

// FrontMatter is every front-matter key, lower-cased, as decoded: Params
// while the post is read, else a new map decoded from the post's
// encoding, the caller's to keep or change.
func (p *Post) FrontMatter() map[string]any {
	if p.Params != nil || p.frontMatter == "" {
		return p.Params
	}
	d := p.frontMatterDecoder()
	return d.valueMap(0)
}

// Param is the front matter's value under key (lower-case), decoding
// that value alone.
func (p *Post) Param(key string) (any, bool) {
	if p.Params != nil || p.frontMatter == "" {
		v, ok := p.Params[key]
		return v, ok
	}
	d := p.frontMatterDecoder()
	n := d.length()
	for range max(n, 0) {
		switch k := d.string(); {
		case d.failed:
			return nil, false
		case k == key:
			return d.value(1), true
		case k > key: // the keys are in order
			return nil, false
		}
		d.skip(1)
	}
	return nil, false
}

func (p *Post) frontMatterDecoder() decoder {
	return decoder{buf: unsafe.Slice(unsafe.StringData(p.frontMatter), len(p.frontMatter)), loc: p.loc}
}

// encodeFrontMatter sets p's front matter encoded, and Params nil, when
// every value of it encodes (a time in a zone the cache cannot name
// again does not: then Params stays).
func encodeFrontMatter(p *Post, loc *time.Location) {
	if p.Params == nil {
		return
	}
	room := encodeRoom.Get().(*[]byte)
	e := encoder{buf: (*room)[:0], loc: loc}
	e.valueMap(p.Params, 0)
	if !e.failed {
		p.frontMatter, p.loc, p.Params = string(e.buf), loc, nil
	}
	if cap(e.buf) <= 64<<10 {
		*room = e.buf
		encodeRoom.Put(room)
	}
}

// encodeRoom holds the buffers encodeFrontMatter encodes into before it
// copies the result to a string of its size: grown once, not for every
// post read.
var encodeRoom = sync.Pool{New: func() any { return new([]byte) }}

// frontMatter writes p's front matter as valueMap writes Params: the
// post's encoding itself when it has one in e's zone.
func (e *encoder) frontMatter(p *Post) {
	if p.Params == nil && p.frontMatter != "" && p.loc == e.loc {
		e.buf = append(e.buf, p.frontMatter...)
		return
	}
	e.valueMap(p.FrontMatter(), 0)
}

// frontMatter reads what encoder.frontMatter wrote into p, encoded: the
// decoder's buffer is never written once read, so p's encoding is a
// part of it, and a post from the cache makes no front-matter value
// until one is asked for.
func (d *decoder) frontMatter(p *Post) {
	start := d.off
	for range max(d.length(), 0) {
		d.string()
		d.skip(1)
	}
	if !d.failed {
		p.frontMatter, p.loc = unsafe.String(&d.buf[start], d.off-start), d.loc
	}
}

// skip passes over one tagged value (decoder.value) without making it.
func (d *decoder) skip(depth int) {
	if depth > maxValueDepth {
		d.fail()
		return
	}
	switch d.byte() {
	case tagNil:
	case tagString:
		d.string()
	case tagBool:
		d.byte()
	case tagInt, tagInt64:
		d.int()
	case tagUint64:
		d.uvarint()
	case tagFloat64:
		d.bytes(8)
	case tagTime:
		d.time()
	case tagList:
		for range max(d.length(), 0) {
			d.skip(depth + 1)
		}
	case tagMap:
		for range max(d.length(), 0) {
			d.string()
			d.skip(depth + 1)
		}
	case tagStrings:
		for range max(d.length(), 0) {
			d.string()
		}
	case tagStringMap:
		for range max(d.length(), 0) {
			d.string()
			d.string()
		}
	default:
		d.fail()
	}
}
