package pipeline

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
	"unsafe"

	"github.com/gohugoio/hugo/common/herrors"
	"github.com/gohugoio/hugo/parser/metadecoders"
	"github.com/gohugoio/hugo/parser/pageparser"
	"github.com/niklasfasching/go-org/org"
	gotoml "github.com/pelletier/go-toml/v2"
)

// This file is the only place that sees Hugo's pageparser and the untyped
// front-matter map: everything after it works on a typed *Post.

// contentError is a problem found while parsing one file.
type contentError struct {
	line int
	msg  string
	// draft: the front matter decoded and says draft: true; the problem
	// counts only when drafts are shown (Hugo does not build drafts).
	draft bool
}

func (e *contentError) Error() string { return e.msg }

func errorAt(line int, format string, args ...any) *contentError {
	if line < 1 {
		line = 1
	}
	return &contentError{line: line, msg: fmt.Sprintf(format, args...)}
}

// parsePost turns one Markdown file into a Post. slug is the default slug
// (the file or bundle folder name). The error, when not nil, is a
// *contentError carrying the line.
func parsePost(file string, src []byte, defaultSlug string, loc *time.Location) (*Post, error) {
	return parseContent(file, bytes.Clone(src), defaultSlug, loc, true)
}

// parseContent is parsePost for any content file. A post without a date
// (requireDate) is published as Hugo publishes it, without one and
// listed last; the line to fix is noted for a warning (Post.noDate).
// The post's text shares src's bytes (readUnit's, read for it), which
// must not change after.
func parseContent(file string, src []byte, defaultSlug string, loc *time.Location, requireDate bool) (*Post, error) {
	if loc == nil {
		loc = time.UTC // a hand-made Config without Validate
	}
	if !utf8.Valid(src) {
		return nil, errorAt(invalidUTF8Line(src), "invalid UTF-8")
	}
	items, err := pageparser.ParseBytes(src, pageparser.Config{})
	if err != nil {
		return nil, errorAt(1, "%v", err)
	}
	lines := newLineCounter(src)
	var (
		fm       map[string]any
		fmSource string
		fmLine   = 1 // the front matter's first line of data
		fmOpen   = 1 // the line that opens the block
		org      bool
		bodyFrom = len(items)
	)
	for i, it := range items {
		if it.IsError() {
			if it.Err.Error() == jsonLexEOF {
				return nil, jsonBlockError(src, it.Pos(), lines)
			}
			line := lines.at(it.Pos())
			if strings.HasPrefix(it.Err.Error(), "EOF looking for end") {
				line-- // the block opened on the line before its first value
			}
			return nil, errorAt(line, "%s", lexError(it.Err))
		}
		if it.IsFrontMatter() {
			// The front matter's text shares src's bytes too: the
			// values the fast path cuts from it (a title, a date) then
			// keep no copy of the front matter alive beside the file.
			val := it.Val(src)
			fmSource = unsafe.String(unsafe.SliceData(val), len(val))
			fmLine = lines.at(it.Pos())
			switch it.Type {
			case pageparser.TypeFrontMatterORG:
				fmOpen, org = fmLine, true // #+KEY: lines, no delimiter
			case pageparser.TypeFrontMatterYAML, pageparser.TypeFrontMatterTOML:
				fmOpen = fmLine - 1 // the --- or +++ line
			default: // JSON: the item may start with the blank lines before {
				fmOpen = fmLine + strings.Count(fmSource[:max(strings.IndexByte(fmSource, '{'), 0)], "\n")
			}
			fm, err = decodeFrontMatter(it, src, fmSource, fmLine)
			if err != nil {
				return nil, err
			}
			bodyFrom = i + 1
			break
		}
		if it.Type != pageparser.TypeIgnore {
			bodyFrom = i
			break
		}
	}
	p := &Post{File: file, Slug: defaultSlug, Params: fm, BodyLine: 1, PageMeta: &PageMeta{}}
	if err := decodeFields(p, fm, fmSource, fmLine, loc, org); err != nil {
		return nil, inDraft(err, fm)
	}
	if requireDate && p.Date.IsZero() {
		p.noDate = max(fmOpen, 1)
	}
	for _, key := range [...]string{"url", "slug"} {
		if _, set := fm[key]; set && p.urlLine == 0 {
			p.urlLine = keyLineIn(fmSource, fmLine, key)
		}
	}
	if len(p.Aliases) > 0 {
		p.aliasesLine = keyLineIn(fmSource, fmLine, "aliases")
	}
	body, err := parseBody(src, items[bodyFrom:], lines)
	if err != nil {
		return nil, inDraft(err, fm)
	}
	p.Body = body
	if bodyFrom < len(items) {
		p.BodyLine = lines.at(items[bodyFrom].Pos())
	}
	return p, nil
}

// inDraft marks a problem found after the front matter decoded as one of
// a draft's, when the front matter says draft: true.
func inDraft(err error, fm map[string]any) error {
	var ce *contentError
	if errors.As(err, &ce) {
		if d, ok := fm["draft"].(bool); ok && d {
			ce.draft = true
		}
	}
	return err
}

func lexError(err error) string {
	msg := err.Error()
	if strings.HasPrefix(msg, "EOF looking for end") {
		return "front matter: unclosed block (" + strings.TrimPrefix(msg, "EOF looking for ") + " missing)"
	}
	return "front matter: " + msg
}

// jsonLexEOF is what Hugo's lexer says when it finds no brace closing the
// JSON front matter. It only counts braces and quotes, so it says the same
// for an unterminated string on line 2 and a missing brace on the last
// line; jsonBlockError asks encoding/json where the block really breaks.
const jsonLexEOF = "unexpected EOF parsing JSON front matter"

// jsonBlockError reports JSON front matter that Hugo's lexer could not
// close. from is the error item's position: the opening brace, maybe after
// blank lines. The decoder reads one value from the brace on; its syntax
// error is the real place (an unterminated string, the body where a brace
// was due). When the input ends first, the block is unclosed, reported on
// the line of its brace as the YAML and TOML blocks are.
func jsonBlockError(src []byte, from int, lines *lineCounter) *contentError {
	brace := from + max(bytes.IndexByte(src[min(from, len(src)):], '{'), 0)
	dec := json.NewDecoder(bytes.NewReader(src[brace:]))
	var v any
	var syn *json.SyntaxError
	if err := dec.Decode(&v); errors.As(err, &syn) {
		base := lines.at(brace) - 1
		line, msg := explain("json", src[brace:], base, lines.at(brace+int(syn.Offset)-1)-base, syn.Error())
		return errorAt(base+line, "front matter: %s", msg)
	}
	return errorAt(lines.at(brace), "front matter: unclosed block (} missing)")
}

var yamlPos = regexp.MustCompile(`^\[(\d+):(\d+)\]\s*`)

// decodeFrontMatter decodes the front-matter item with Hugo's decoders
// (YAML, TOML, JSON) and lower-cases the keys, as Hugo does. text is the
// item's data as a string: YAML in the subset fastYAML takes is decoded
// from it, to the same values, without the decoder.
func decodeFrontMatter(it pageparser.Item, src []byte, text string, startLine int) (map[string]any, error) {
	format := pageparser.FormatFromFrontMatterType(it.Type)
	data := it.Val(src)
	if format == metadecoders.ORG {
		return orgFrontMatter(data, startLine)
	}
	if line, msg := frontMatterBounds(string(format), data); line > 0 {
		return nil, errorAt(startLine-1+line, "front matter: %s", msg)
	}
	if format == metadecoders.YAML {
		if m, ok := fastYAML(text); ok {
			return lowerKeys(m), nil
		}
	}
	m, err := metadecoders.Default.UnmarshalToMap(data, format)
	if err != nil {
		// The YAML and TOML front matter starts on the line after its
		// delimiter; JSON's opening brace is part of the data.
		base := startLine - 1
		line, msg := decodeErrorPos(err, data)
		if line == 0 {
			base, line = startLine, 0
		}
		// YAML counts a lone \r as a line break too; keep the line inside
		// the front matter for files with old Mac line ends.
		line = min(line, lineOf(data, len(data)))
		if line > 0 {
			line, msg = explain(string(format), data, base, line, msg)
		} else {
			msg = string(format) + ": " + msg
		}
		return nil, errorAt(base+line, "front matter: %s", msg)
	}
	return lowerKeys(m), nil
}

// lowerKeys lower-cases the top-level keys. When two keys differ only in
// case, the lower-case one wins, else the first in byte order, so that the
// result never depends on map iteration order. A map whose keys are all
// lower-case already (most front matter) is m itself.
func lowerKeys(m map[string]any) map[string]any {
	lower := true
	for k := range m {
		if strings.ToLower(k) != k {
			lower = false
			break
		}
	}
	if lower {
		return m
	}
	out := make(map[string]any, len(m))
	var mixed []string
	for k, v := range m {
		if lk := strings.ToLower(k); lk == k {
			out[k] = v
		} else {
			mixed = append(mixed, k)
		}
	}
	slices.Sort(mixed)
	for _, k := range mixed {
		if lk := strings.ToLower(k); !has(out, lk) {
			out[lk] = m[k]
		}
	}
	return out
}

func has(m map[string]any, k string) bool {
	_, ok := m[k]
	return ok
}

// decodeErrorPos digs the line (relative to data, 1-based; 0 when unknown)
// and a one-line message out of a decoder error.
func decodeErrorPos(err error, data []byte) (int, string) {
	var syn *json.SyntaxError
	if errors.As(err, &syn) {
		return lineOf(data, int(syn.Offset)), syn.Error()
	}
	var typ *json.UnmarshalTypeError
	if errors.As(err, &typ) {
		return lineOf(data, int(typ.Offset)), typ.Error()
	}
	var tomlErr *gotoml.DecodeError
	if errors.As(err, &tomlErr) {
		row, _ := tomlErr.Position()
		return row, strings.TrimPrefix(tomlErr.Error(), "toml: ")
	}
	msg := err.Error()
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if m := yamlPos.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[1])
		return line, strings.TrimSpace(msg[len(m[0]):])
	}
	var fe herrors.FileError
	if errors.As(err, &fe) {
		return fe.Position().LineNumber, strings.TrimSpace(errors.Unwrap(fe).Error())
	}
	return 0, msg
}

func lineOf(data []byte, offset int) int {
	if offset > len(data) {
		offset = len(data)
	}
	if offset < 0 {
		offset = 0
	}
	return bytes.Count(data[:offset], []byte{'\n'}) + 1
}

func invalidUTF8Line(src []byte) int {
	for i := 0; i < len(src); {
		r, n := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && n == 1 {
			return lineOf(src, i)
		}
		i += n
	}
	return 1
}

// lineCounter maps byte offsets to lines; offsets must not go backwards by
// much (items come in order), so it counts forward from the last answer.
type lineCounter struct {
	src       []byte
	pos, line int
}

func newLineCounter(src []byte) *lineCounter { return &lineCounter{src: src, line: 1} }

func (c *lineCounter) at(pos int) int {
	if pos < c.pos {
		c.pos, c.line = 0, 1
	}
	if pos > len(c.src) {
		pos = len(c.src)
	}
	c.line += bytes.Count(c.src[c.pos:pos], []byte{'\n'})
	c.pos = pos
	return c.line
}

// orgFrontMatter decodes Org keywords (#+TITLE: …, #+TAGS[]: a b) at the
// top of a file, which Hugo's lexer takes for front matter in any content
// file, by Hugo's rules: keys lower-cased; "KEY[]" a list of the value's
// words, a keyword given on several lines a list of its lines, filetags
// (":a:b:") a list of its tags; dates written as Org timestamps
// (<2026-01-02 Fri>, [2026-01-02 Fri 10:00]) cut to their day. go-org
// reads the keywords, as in Hugo, its warnings unsaid.
func orgFrontMatter(data []byte, startLine int) (map[string]any, error) {
	if len(data) > maxFrontMatter {
		return nil, errorAt(startLine, "front matter too large: %d bytes (the limit is %d KiB)", len(data), maxFrontMatter>>10)
	}
	cfg := org.New()
	cfg.Log = log.New(io.Discard, "", 0)
	cfg.ReadFile = func(string) ([]byte, error) { return nil, errors.New("not read") }
	doc := cfg.Parse(bytes.NewReader(data), "")
	if doc.Error != nil {
		return nil, errorAt(startLine, "front matter: org: %v", doc.Error)
	}
	m := make(map[string]any, len(doc.BufferSettings))
	for k, v := range doc.BufferSettings {
		k = strings.ToLower(k)
		switch {
		case strings.HasSuffix(k, "[]"):
			m[k[:len(k)-2]] = anyList(strings.Fields(v))
		case strings.Contains(v, "\n"):
			m[k] = anyList(strings.Split(v, "\n"))
		case k == "filetags":
			m[k] = anyList(strings.Split(strings.TrimSuffix(strings.TrimPrefix(v, ":"), ":"), ":"))
		case k == "date" || k == "lastmod" || k == "publishdate" || k == "expirydate":
			if d := orgTimestamp.FindStringSubmatch(v); d != nil {
				v = d[1]
			}
			m[k] = v
		default:
			m[k] = v
		}
	}
	return m, nil
}

// orgTimestamp is an Org timestamp, active or inactive, with its day.
var orgTimestamp = regexp.MustCompile(`[<\[](\d{4}-\d{2}-\d{2}) .*[>\]]`)

func anyList(l []string) []any {
	a := make([]any, len(l))
	for i, s := range l {
		a[i] = s
	}
	return a
}
