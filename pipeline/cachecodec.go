package pipeline

import (
	"cmp"
	"encoding/binary"
	"math"
	"slices"
	"time"
	"unsafe"
)

// The cache's entries (cache.go) are written by hand, field by field,
// without reflection: a post is its file's hash, then its fields in the
// order below. Strings are a length and their bytes; slices and maps a
// length plus one (0 is nil, so nil and empty stay apart), map entries in
// the order of their keys; times their instant and zone. Front-matter
// values (Params, a shortcode's typed arguments) are tagged with their
// type, among the types the decoders make; a value of any other type, or
// a time in a zone that cannot be named again, makes the post one the
// cache does not hold (encoder.failed). TestCacheRoundTrip fills every
// field of a Post and holds the decoded copy equal to it, so a field
// added to Post and not here fails it.
//
// The decoder never trusts a length: each is checked against what is
// left, so a cut or crafted file fails (decoder.failed) rather than
// panic or allocate without bound. Decoded strings share the cache's
// buffer, which is never written once read.

// maxValueDepth bounds how deeply front-matter values nest in the cache.
const maxValueDepth = 100

type encoder struct {
	buf    []byte
	loc    *time.Location // the site's zone, named as such
	failed bool
	// body is where the last post's body (its nodes, BodyLine and the
	// URL's and aliases' keys' lines: lines, which no page shows) is
	// in buf: the rest are its fields (fieldsSum).
	body [2]int
}

func (e *encoder) raw(b []byte)     { e.buf = append(e.buf, b...) }
func (e *encoder) uvarint(n uint64) { e.buf = binary.AppendUvarint(e.buf, n) }
func (e *encoder) int(n int64)      { e.buf = binary.AppendVarint(e.buf, n) }
func (e *encoder) string(s string)  { e.uvarint(uint64(len(s))); e.buf = append(e.buf, s...) }

func (e *encoder) bool(b bool) {
	if b {
		e.buf = append(e.buf, 1)
	} else {
		e.buf = append(e.buf, 0)
	}
}

// length writes a slice's or map's length, 0 for nil.
func (e *encoder) length(n int, isNil bool) {
	if isNil {
		e.uvarint(0)
		return
	}
	e.uvarint(uint64(n) + 1)
}

func (e *encoder) strings(ss []string) {
	e.length(len(ss), ss == nil)
	for _, s := range ss {
		e.string(s)
	}
}

// Zones of a time: the zero time, UTC, the site's zone, an unnamed
// fixed offset (a date written with one).
const (
	zoneZero = iota
	zoneUTC
	zoneSite
	zoneFixed
)

func (e *encoder) time(t time.Time) {
	if t.IsZero() && t.Location() == time.UTC {
		e.buf = append(e.buf, zoneZero)
		return
	}
	loc := t.Location()
	switch {
	case loc == time.UTC:
		e.buf = append(e.buf, zoneUTC)
	case loc == e.loc && loc != time.Local:
		e.buf = append(e.buf, zoneSite)
	case loc.String() == "" && loc != time.Local:
		_, off := t.Zone()
		e.buf = append(e.buf, zoneFixed)
		e.int(int64(off))
	default:
		e.failed = true // Local, or a named zone: not named again alike
		return
	}
	e.int(t.Unix())
	e.uvarint(uint64(t.Nanosecond()))
}

// Tags of front-matter values.
const (
	tagNil = iota
	tagString
	tagBool
	tagInt
	tagInt64
	tagUint64
	tagFloat64
	tagTime
	tagList
	tagMap
	tagStrings
	tagStringMap
)

func (e *encoder) value(v any, depth int) {
	if depth > maxValueDepth {
		e.failed = true
		return
	}
	switch v := v.(type) {
	case nil:
		e.buf = append(e.buf, tagNil)
	case string:
		e.buf = append(e.buf, tagString)
		e.string(v)
	case bool:
		e.buf = append(e.buf, tagBool)
		e.bool(v)
	case int:
		e.buf = append(e.buf, tagInt)
		e.int(int64(v))
	case int64:
		e.buf = append(e.buf, tagInt64)
		e.int(v)
	case uint64:
		e.buf = append(e.buf, tagUint64)
		e.uvarint(v)
	case float64:
		e.buf = append(e.buf, tagFloat64)
		e.buf = binary.LittleEndian.AppendUint64(e.buf, math.Float64bits(v))
	case time.Time:
		e.buf = append(e.buf, tagTime)
		e.time(v)
	case []any:
		e.buf = append(e.buf, tagList)
		e.length(len(v), v == nil)
		for _, x := range v {
			e.value(x, depth+1)
		}
	case map[string]any:
		e.buf = append(e.buf, tagMap)
		e.valueMap(v, depth)
	case []string:
		e.buf = append(e.buf, tagStrings)
		e.strings(v)
	case map[string]string:
		e.buf = append(e.buf, tagStringMap)
		e.stringMap(v)
	default:
		e.failed = true
	}
}

func (e *encoder) valueMap(m map[string]any, depth int) {
	e.length(len(m), m == nil)
	var room [fewKeys]string
	for _, k := range ordered(room[:], m) {
		e.string(k)
		e.value(m[k], depth+1)
	}
}

func (e *encoder) stringMap(m map[string]string) {
	e.length(len(m), m == nil)
	var room [fewKeys]string
	for _, k := range ordered(room[:], m) {
		e.string(k)
		e.string(m[k])
	}
}

// stamp writes a file's stamp (all zero: none).
func (e *encoder) stamp(s fileStamp) {
	e.int(s.size)
	e.int(s.mod)
	e.int(s.change)
	e.uvarint(s.ino)
	e.uvarint(s.dev)
}

func (e *encoder) post(p *Post) {
	if p.noDate != 0 || len(p.keyWarnings) > 0 { // a warning's, and a post with one is never cached
		e.failed = true
		return
	}
	e.string(p.File)
	e.string(p.Bundle)
	e.strings(p.Resources)
	e.strings(p.ContentFiles)
	e.string(p.Slug)
	e.string(p.Title)
	e.string(p.Description)
	e.string(p.Category)
	e.strings(p.Tags)
	e.strings(p.Categories)
	e.strings(p.Aliases)
	e.bool(p.Draft)
	e.time(p.Date)
	e.time(p.Lastmod)
	e.time(p.Expiry)
	e.frontMatter(p)
	e.body[0] = len(e.buf)
	e.nodes(p.Body, 0)
	e.int(int64(p.BodyLine))
	e.int(int64(p.urlLine))
	e.int(int64(p.aliasesLine))
	e.body[1] = len(e.buf)
	e.pageMeta(p.PageMeta)
}

func (e *encoder) nodes(ns []Node, depth int) {
	if depth > maxValueDepth {
		e.failed = true
		return
	}
	e.length(len(ns), ns == nil)
	for i := range ns {
		n := &ns[i]
		e.buf = append(e.buf, byte(n.Kind))
		e.string(n.Text)
		e.int(int64(n.Line))
		e.string(n.Name)
		e.strings(n.Positional)
		e.stringMap(n.Named)
		e.nodes(n.Inner, depth+1)
		e.bool(n.HasInner)
		e.bool(n.Markup)
		e.value(n.Params, 0)
		e.string(n.Indent)
	}
}

func (e *encoder) pageMeta(m *PageMeta) {
	if m == nil {
		m = &PageMeta{}
	}
	e.string(m.Kind)
	e.string(m.Lang)
	e.string(m.Dir)
	e.string(m.Base)
	e.string(m.SlugParam)
	e.string(m.TitleParam)
	e.string(m.URL)
	e.int(int64(m.Weight))
	e.string(m.LinkTitle)
	e.string(m.Build.List)
	e.string(m.Build.Render)
	e.bool(m.Build.PublishResources)
	e.length(len(m.Terms), m.Terms == nil)
	for _, k := range ordered(nil, m.Terms) {
		e.string(k)
		e.strings(m.Terms[k])
	}
	e.length(len(m.Menus), m.Menus == nil)
	for i := range m.Menus {
		me := &m.Menus[i]
		for _, s := range [...]string{me.Menu, me.Identifier, me.Parent, me.Name, me.Pre, me.Post, me.URL, me.PageRef} {
			e.string(s)
		}
		e.int(int64(me.Weight))
		e.string(me.Title)
		e.valueMap(me.Params, 0)
		e.string(me.Page)
	}
	e.time(m.Created)
	e.strings(m.Images)
	e.string(m.TranslationKey)
	e.strings(m.Outputs)
}

// A decoder reads what an encoder wrote from buf at off.
type decoder struct {
	buf    []byte
	off    int
	loc    *time.Location
	failed bool
	// body is where the last post's body is in buf (encoder.body).
	body [2]int
}

func (d *decoder) fail() { d.failed, d.off = true, len(d.buf) }

func (d *decoder) byte() byte {
	if d.off >= len(d.buf) {
		d.fail()
		return 0
	}
	b := d.buf[d.off]
	d.off++
	return b
}

func (d *decoder) bytes(n int) []byte {
	if n < 0 || n > len(d.buf)-d.off {
		d.fail()
		return nil
	}
	b := d.buf[d.off : d.off+n : d.off+n]
	d.off += n
	return b
}

func (d *decoder) uvarint() uint64 {
	n, k := binary.Uvarint(d.buf[d.off:])
	if k <= 0 {
		d.fail()
		return 0
	}
	d.off += k
	return n
}

func (d *decoder) int() int64 {
	n, k := binary.Varint(d.buf[d.off:])
	if k <= 0 {
		d.fail()
		return 0
	}
	d.off += k
	return n
}

// string shares the buffer's bytes, which are never written again.
func (d *decoder) string() string {
	n := d.uvarint()
	if n > uint64(len(d.buf)-d.off) {
		d.fail()
		return ""
	}
	if n == 0 {
		return ""
	}
	s := unsafe.String(&d.buf[d.off], int(n))
	d.off += int(n)
	return s
}

func (d *decoder) bool() bool { return d.byte() == 1 }

// length reads a length written by encoder.length: -1 for nil. A length
// beyond what is left (each element takes a byte at least) fails.
func (d *decoder) length() int {
	n := d.uvarint()
	if n == 0 {
		return -1
	}
	if n-1 > uint64(len(d.buf)-d.off) {
		d.fail()
		return -1
	}
	return int(n - 1)
}

func (d *decoder) strings() []string {
	n := d.length()
	if n < 0 {
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = d.string()
	}
	return ss
}

func (d *decoder) time() time.Time {
	var loc *time.Location
	switch d.byte() {
	case zoneZero:
		return time.Time{}
	case zoneUTC:
		loc = time.UTC
	case zoneSite:
		loc = d.loc
	case zoneFixed:
		off := d.int()
		if off < -1<<20 || off > 1<<20 {
			d.fail()
			return time.Time{}
		}
		loc = time.FixedZone("", int(off))
	default:
		d.fail()
		return time.Time{}
	}
	sec, nsec := d.int(), d.uvarint()
	if nsec >= 1e9 || loc == nil {
		d.fail()
		return time.Time{}
	}
	return time.Unix(sec, int64(nsec)).In(loc)
}

func (d *decoder) value(depth int) any {
	if depth > maxValueDepth {
		d.fail()
		return nil
	}
	switch d.byte() {
	case tagNil:
		return nil
	case tagString:
		return d.string()
	case tagBool:
		return d.bool()
	case tagInt:
		return int(d.int())
	case tagInt64:
		return d.int()
	case tagUint64:
		return d.uvarint()
	case tagFloat64:
		b := d.bytes(8)
		if d.failed {
			return nil
		}
		return math.Float64frombits(binary.LittleEndian.Uint64(b))
	case tagTime:
		return d.time()
	case tagList:
		n := d.length()
		if n < 0 {
			return []any(nil)
		}
		l := make([]any, n)
		for i := range l {
			l[i] = d.value(depth + 1)
		}
		return l
	case tagMap:
		return d.valueMap(depth)
	case tagStrings:
		return d.strings()
	case tagStringMap:
		return d.stringMap()
	}
	d.fail()
	return nil
}

func (d *decoder) valueMap(depth int) map[string]any {
	n := d.length()
	if n < 0 {
		return nil
	}
	m := make(map[string]any, n)
	for range n {
		k := d.string()
		m[k] = d.value(depth + 1)
	}
	return m
}

func (d *decoder) stringMap() map[string]string {
	n := d.length()
	if n < 0 {
		return nil
	}
	m := make(map[string]string, n)
	for range n {
		k := d.string()
		m[k] = d.string()
	}
	return m
}

func (d *decoder) stamp() fileStamp {
	return fileStamp{size: d.int(), mod: d.int(), change: d.int(), ino: d.uvarint(), dev: d.uvarint()}
}

func (d *decoder) post() *Post {
	p := &Post{PageMeta: &PageMeta{}}
	p.File = d.string()
	p.Bundle = d.string()
	p.Resources = d.strings()
	p.ContentFiles = d.strings()
	p.Slug = d.string()
	p.Title = d.string()
	p.Description = d.string()
	p.Category = d.string()
	p.Tags = d.strings()
	p.Categories = d.strings()
	p.Aliases = d.strings()
	p.Draft = d.bool()
	p.Date = d.time()
	p.Lastmod = d.time()
	p.Expiry = d.time()
	d.frontMatter(p)
	d.body[0] = d.off
	p.Body = d.nodes(0)
	p.BodyLine = int(d.int())
	p.urlLine = int(d.int())
	p.aliasesLine = int(d.int())
	d.body[1] = d.off
	d.pageMeta(p.PageMeta)
	return p
}

func (d *decoder) nodes(depth int) []Node {
	if depth > maxValueDepth {
		d.fail()
		return nil
	}
	n := d.length()
	if n < 0 {
		return nil
	}
	ns := make([]Node, n)
	for i := range ns {
		nd := &ns[i]
		nd.Kind = NodeKind(d.byte())
		nd.Text = d.string()
		nd.Line = int(d.int())
		nd.Name = d.string()
		nd.Positional = d.strings()
		nd.Named = d.stringMap()
		nd.Inner = d.nodes(depth + 1)
		nd.HasInner = d.bool()
		nd.Markup = d.bool()
		nd.Params = d.value(0)
		nd.Indent = d.string()
		if d.failed {
			return nil
		}
	}
	return ns
}

func (d *decoder) pageMeta(m *PageMeta) {
	m.Kind = d.string()
	m.Lang = d.string()
	m.Dir = d.string()
	m.Base = d.string()
	m.SlugParam = d.string()
	m.TitleParam = d.string()
	m.URL = d.string()
	m.Weight = int(d.int())
	m.LinkTitle = d.string()
	m.Build.List = d.string()
	m.Build.Render = d.string()
	m.Build.PublishResources = d.bool()
	if n := d.length(); n >= 0 {
		m.Terms = make(map[string][]string, n)
		for range n {
			k := d.string()
			m.Terms[k] = d.strings()
		}
	}
	if n := d.length(); n >= 0 {
		m.Menus = make([]MenuEntry, n)
		for i := range m.Menus {
			me := &m.Menus[i]
			for _, s := range [...]*string{&me.Menu, &me.Identifier, &me.Parent, &me.Name, &me.Pre, &me.Post, &me.URL, &me.PageRef} {
				*s = d.string()
			}
			me.Weight = int(d.int())
			me.Title = d.string()
			me.Params = d.valueMap(0)
			me.Page = d.string()
		}
	}
	m.Created = d.time()
	m.Images = d.strings()
	m.TranslationKey = d.string()
	m.Outputs = d.strings()
}

// ordered are m's keys in order, in keys' room when they fit (a
// caller's array of a few, so that a post's front matter, encoded as it
// is read, sorts its keys without allocating): the cache's bytes do not
// depend on the order maps are walked in.
func ordered[K cmp.Ordered, V any](keys []K, m map[K]V) []K {
	keys = keys[:0]
	if len(m) > cap(keys) {
		keys = make([]K, 0, len(m))
	}
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// fewKeys is the room for a map's keys that ordered is given: front
// matter has a handful.
const fewKeys = 16
