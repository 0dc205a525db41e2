package render

import (
	"bytes"
	"html"
	"io"
	"sort"
	"strings"

	"github.com/yuin/goldmark/text"
)

// rawURLAttrs are the attributes of raw HTML whose values a browser
// follows or loads, each marked true where it names a page (a link) and
// false where it names a file (an image, a video, an object): what
// resolveDest is asked.
var rawURLAttrs = map[string]bool{
	"href": true, "action": true, "formaction": true, "cite": true, "longdesc": true,
	"ping": true, "xlink:href": true,
	"src": false, "srcset": false, "poster": false, "data": false, "background": false,
}

// rawText are the elements whose content is text a tag scanner must not
// read as tags.
var rawText = []string{"script", "style", "textarea", "title", "xmp"}

// A rawAttr is one URL attribute of a tag in raw HTML: the bytes from the
// space before its name to the end of its value, and its value as the
// browser reads it (character references decoded).
type rawAttr struct {
	start, stop int
	name, value string
}

// rawURLs lists the URL attributes of the tags in b, raw HTML as written
// (a tag, or the lines of an HTML block). Comments, declarations and the
// text of script, style and the like are skipped, as a browser does.
func rawURLs(b []byte) []rawAttr {
	var out []rawAttr
	for i := 0; i < len(b); {
		lt := bytes.IndexByte(b[i:], '<')
		if lt < 0 {
			break
		}
		i += lt
		switch {
		case bytes.HasPrefix(b[i:], []byte("<!--")):
			i = skipPast(b, i+4, "-->")
			continue
		case i+1 < len(b) && (b[i+1] == '!' || b[i+1] == '?'):
			i = skipPast(b, i+2, ">")
			continue
		case i+1 >= len(b) || !isASCIILetter(b[i+1]):
			i++
			continue
		}
		name, attrs, end := scanTag(b, i+1)
		out = append(out, attrs...)
		i = end
		for _, el := range rawText {
			if name == el {
				i = skipPastFold(b, i, "</"+el)
			}
		}
	}
	return out
}

// scanTag reads a start tag from its name at b[i]: the name in lower
// case, its URL attributes, and the offset after it. It reads attributes
// as HTML's tokenizer does: names end at white space, "/", ">" or "=";
// values are quoted with " or ', or run to white space or ">".
func scanTag(b []byte, i int) (name string, attrs []rawAttr, end int) {
	start := i
	for i < len(b) && !isHTMLSpace(b[i]) && b[i] != '/' && b[i] != '>' {
		i++
	}
	name = strings.ToLower(string(b[start:i]))
	for i < len(b) {
		before := i
		for i < len(b) && (isHTMLSpace(b[i]) || b[i] == '/') {
			i++
		}
		if i >= len(b) || b[i] == '>' {
			break
		}
		ns := i
		for i++; i < len(b) && !isHTMLSpace(b[i]) && b[i] != '/' && b[i] != '>' && b[i] != '='; i++ {
		}
		attr := strings.ToLower(string(b[ns:i]))
		j := i
		for j < len(b) && isHTMLSpace(b[j]) {
			j++
		}
		var value []byte
		if j < len(b) && b[j] == '=' {
			j++
			for j < len(b) && isHTMLSpace(b[j]) {
				j++
			}
			switch {
			case j < len(b) && (b[j] == '"' || b[j] == '\''):
				q := bytes.IndexByte(b[j+1:], b[j])
				if q < 0 {
					value, j = b[j+1:], len(b)
				} else {
					value, j = b[j+1:j+1+q], j+2+q
				}
			default:
				vs := j
				for j < len(b) && !isHTMLSpace(b[j]) && b[j] != '>' {
					j++
				}
				value = b[vs:j]
			}
			i = j
		}
		if _, ok := rawURLAttrs[attr]; ok {
			attrs = append(attrs, rawAttr{start: before, stop: i, name: attr, value: html.UnescapeString(string(value))})
		}
	}
	if i < len(b) {
		i++ // ">"
	}
	return name, attrs, i
}

// urls are the URLs an attribute's value names: a srcset's candidates, a
// ping's list, else the value itself.
func (a rawAttr) urls() []string {
	switch a.name {
	case "srcset":
		var out []string
		for c := range strings.SplitSeq(a.value, ",") {
			if f := strings.Fields(c); len(f) > 0 {
				out = append(out, f[0])
			}
		}
		return out
	case "ping":
		return strings.Fields(a.value)
	}
	return []string{strings.TrimSpace(a.value)}
}

func skipPast(b []byte, i int, end string) int {
	if k := bytes.Index(b[i:], []byte(end)); k >= 0 {
		return i + k + len(end)
	}
	return len(b)
}

func skipPastFold(b []byte, i int, end string) int {
	for k := i; k+len(end) <= len(b); k++ {
		if bytes.EqualFold(b[k:k+len(end)], []byte(end)) {
			return k
		}
	}
	return len(b)
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isHTMLSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

// rawHidden finds, in raw HTML kept by Options.Unsafe (the segments of an
// inline tag or of an HTML block's lines), the URL attributes naming an
// unpublished post or a file of its bundle. Each is reported, as a link
// is, and cut from both outputs: the page (rawCuts, applied as the raw
// HTML is written) and the Markdown alternate (edits), so <a href> to a
// draft keeps its text alone, as a Markdown link does.
func (st *state) rawHidden(segs []text.Segment) {
	var b []byte
	offs := make([]int, 0, len(segs)) // where each segment starts in b
	for _, s := range segs {
		offs = append(offs, len(b))
		b = append(b, s.Value(st.src)...)
	}
	for _, a := range rawURLs(b) {
		line := st.line(st.srcOffset(segs, offs, a.start))
		drop := false
		for _, u := range a.urls() {
			if u != "" && st.resolveDest(u, !rawURLAttrs[a.name], line).drop {
				drop = true
			}
		}
		if drop {
			st.cutRaw(segs, offs, a.start, a.stop)
		}
	}
}

// srcOffset maps an offset in the joined segments back to the source.
func (st *state) srcOffset(segs []text.Segment, offs []int, at int) int {
	for k := len(offs) - 1; k >= 0; k-- {
		if at >= offs[k] {
			return segs[k].Start + at - offs[k]
		}
	}
	return 0
}

// cutRaw removes joined[start:stop] from both outputs, segment by segment.
func (st *state) cutRaw(segs []text.Segment, offs []int, start, stop int) {
	for k, s := range segs {
		lo, hi := max(start, offs[k]), min(stop, offs[k]+s.Len())
		if lo >= hi {
			continue
		}
		e := edit{s.Start + lo - offs[k], s.Start + hi - offs[k], ""}
		st.rawCuts = append(st.rawCuts, e)
		if !st.holdsCall(e.start, e.end) {
			st.edits = append(st.edits, e)
		}
	}
}

// writeRaw writes src[seg] with the rawCuts inside it left out. The cuts
// are in source order: the walk that makes them goes in document order.
func (st *state) writeRaw(w io.Writer, seg text.Segment) {
	at := seg.Start
	i := sort.Search(len(st.rawCuts), func(i int) bool { return st.rawCuts[i].start >= seg.Start })
	for ; i < len(st.rawCuts) && st.rawCuts[i].end <= seg.Stop; i++ {
		if c := st.rawCuts[i]; c.start >= at {
			w.Write(st.src[at:c.start])
			at = c.end
		}
	}
	w.Write(st.src[at:seg.Stop])
}
