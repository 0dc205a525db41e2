package export

import (
	"encoding/binary"
	"net/http"
	"sync"
)

// A build holds every route's headers until it writes its record, and the
// nginx config or the Workers project reads them after: some 29,000
// header sets, and 14,500 Markdown ones, at 10,000 posts. As maps they
// were 20 MB of the build's live heap (each map some 700 bytes, its
// unique values apart), marked by every collection. So once a route is
// written, its headers are packed into one string, the entries most
// routes share (a Content-Type, Cache-Control, Vary, a Last-Modified
// date) numbered in a table of the build's, the others (an ETag, a
// length, a Link naming the page) written out; fillHeaders unpacks them
// for what reads them.

// A headerTable numbers the header entries (a name and its values) that
// routes share. Workers add to it at once.
type headerTable struct {
	mu      sync.RWMutex
	index   map[string]uint64 // entryKey → number
	entries []headerEntry
}

type headerEntry struct {
	name string
	vals []string
}

// packedHeaders are a route's headers (Header, MarkdownHeader) packed
// (pack), with the table they number entries of.
type packedHeaders struct {
	table     *headerTable
	plain, md string
}

// unsharedHeader names the headers whose values are the route's own, or
// nearly: written out rather than numbered, so that the table holds only
// what routes share.
func unsharedHeader(name string) bool {
	switch name {
	case "Etag", "Content-Length", "Link", "X-Markdown-Tokens", "Location":
		return true
	}
	return false
}

// appendEntryKey appends an entry's key in the table's index: its name
// and values, each after its length (no two entries share one).
func appendEntryKey(b []byte, name string, vals []string) []byte {
	b = appendCount(b, len(name), false)
	b = append(b, name...)
	b = appendCount(b, len(vals), vals == nil)
	for _, v := range vals {
		b = binary.AppendUvarint(b, uint64(len(v)))
		b = append(b, v...)
	}
	return b
}

// number is the entry's number in the table, added when new. The key
// is made on the stack, and a string of it only for a new entry.
func (t *headerTable) number(name string, vals []string) uint64 {
	var buf [256]byte
	key := appendEntryKey(buf[:0], name, vals)
	t.mu.RLock()
	i, ok := t.index[string(key)]
	t.mu.RUnlock()
	if ok {
		return i
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if i, ok := t.index[string(key)]; ok {
		return i
	}
	if t.index == nil {
		t.index = map[string]uint64{}
	}
	i = uint64(len(t.entries))
	t.entries = append(t.entries, headerEntry{name: name, vals: vals})
	t.index[string(key)] = i
	return i
}

// pack writes h as a string: 0 for a nil h; else the count of its
// entries (plus one), then each entry as 0, its name and values written
// out, or as its number in the table plus one.
func (t *headerTable) pack(h http.Header) string {
	if h == nil {
		return ""
	}
	var buf [512]byte // a page's set is some 250-400 bytes
	b := appendCount(buf[:0], len(h), false)
	for name, vals := range h {
		if !unsharedHeader(name) {
			b = binary.AppendUvarint(b, t.number(name, vals)+1)
			continue
		}
		b = append(b, 0)
		b = binary.AppendUvarint(b, uint64(len(name)))
		b = append(b, name...)
		b = appendCount(b, len(vals), vals == nil)
		for _, v := range vals {
			b = binary.AppendUvarint(b, uint64(len(v)))
			b = append(b, v...)
		}
	}
	return string(b)
}

// unpack is the header pack wrote as s: a fresh map, whose written-out
// values are slices of s and whose numbered ones are the table's.
func (t *headerTable) unpack(s string) http.Header {
	if s == "" {
		return nil
	}
	t.mu.RLock()
	defer t.mu.RUnlock()
	d := recordDecoder{data: s}
	n := max(d.count(), 0)
	h := make(http.Header, n)
	for range n {
		i := d.uvarint()
		if i > 0 {
			if i-1 < uint64(len(t.entries)) {
				e := t.entries[i-1]
				h[e.name] = e.vals
			}
			continue
		}
		name := d.string()
		c := d.count()
		var vals []string
		if c >= 0 {
			vals = make([]string, c)
			for j := range vals {
				vals[j] = d.string()
			}
		}
		h[name] = vals
	}
	return h
}

// packHeaders packs the headers of f, just written, and lets go of the
// maps (see fillHeaders).
func (t *headerTable) packHeaders(f *File) {
	if f.kept != nil || (f.Header == nil && f.MarkdownHeader == nil) {
		return
	}
	f.packed = &packedHeaders{table: t, plain: t.pack(f.Header), md: t.pack(f.MarkdownHeader)}
	f.Header, f.MarkdownHeader = nil, nil
}

// headers are f's Header and MarkdownHeader, unpacked when packed
// (without keeping them), else decoded from its record when kept.
func (f *File) headers() (plain, md http.Header) {
	if p := f.packed; p != nil && f.Header == nil && f.MarkdownHeader == nil {
		return p.table.unpack(p.plain), p.table.unpack(p.md)
	}
	f.fillHeaders()
	return f.Header, f.MarkdownHeader
}
