package funcs

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"html/template"
	"strings"
	"unicode"

	"github.com/gohugoio/hugo/parser/metadecoders"
)

// transformNS is Hugo's transform namespace.
type transformNS struct{ n *namespaces }

// Markdownify renders Markdown (shortcodes included) inline.
func (t *transformNS) Markdownify(v any) (template.HTML, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return t.n.env().Markdownify(s)
}

// Plainify removes HTML tags, paragraph ends and line breaks becoming new
// lines, runs of white space one.
func (t *transformNS) Plainify(v any) (template.HTML, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return template.HTML(Plainify(s)), nil
}

// Plainify is Hugo's plainify on a string.
func Plainify(s string) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	s = strings.NewReplacer("\n", " ", "</p>", "\x00", "<br>", "\x00", "<br />", "\x00").Replace(s)
	s = strings.ReplaceAll(StripTags(s), "\x00", "\n")
	var b strings.Builder
	wasSpace := false
	for _, r := range s {
		isSpace := unicode.IsSpace(r)
		if !(isSpace && wasSpace) {
			b.WriteRune(r)
		}
		wasSpace = isSpace
	}
	return b.String()
}

// HTMLEscape escapes <, >, &, ' and ".
func (t *transformNS) HTMLEscape(v any) (string, error) {
	s, err := toString(v)
	return html.EscapeString(s), err
}

// HTMLUnescape decodes entities.
func (t *transformNS) HTMLUnescape(v any) (string, error) {
	s, err := toString(v)
	return html.UnescapeString(s), err
}

// XMLEscape escapes text for XML.
func (t *transformNS) XMLEscape(v any) (string, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	var b bytes.Buffer
	err = xml.EscapeText(&b, []byte(s))
	return b.String(), err
}

// Emojify replaces :emoji: codes by their characters.
func (t *transformNS) Emojify(v any) (template.HTML, error) {
	s, err := toString(v)
	if err != nil {
		return "", err
	}
	return t.n.env().Emojify(s), nil
}

// Highlight highlights code in a language with options
// ("linenos=table,hl_lines=2").
func (t *transformNS) Highlight(code any, lang any, opts ...any) (template.HTML, error) {
	c, err1 := toString(code)
	l, err2 := toString(lang)
	if err := errors.Join(err1, err2); err != nil {
		return "", err
	}
	o := ""
	if len(opts) > 0 {
		if m, ok := toMap(opts[0]); ok {
			var parts []string
			for k, v := range m {
				if r, ok := v.([][2]int); ok {
					// A code block hook's .Options: hl_lines as Hugo's
					// zero-based ranges.
					var lines []string
					for _, x := range r {
						lines = append(lines, fmt.Sprintf("%d-%d", x[0]+1, x[1]+1))
					}
					v = strings.Join(lines, " ")
				}
				parts = append(parts, fmt.Sprintf("%s=%v", k, v))
			}
			o = strings.Join(parts, ",")
		} else if s, err := toString(opts[0]); err == nil {
			o = s
		}
	}
	return t.n.env().Highlight(c, l, o)
}

// CanHighlight reports whether chroma knows the language, as Hugo's
// transform.CanHighlight: code block hooks ask it before calling highlight.
func (t *transformNS) CanHighlight(lang any) (bool, error) {
	l, err := toString(lang)
	if err != nil {
		return false, err
	}
	return t.n.env().CanHighlight(l), nil
}

// Unmarshal decodes JSON, YAML, TOML or CSV text (or a resource's
// content) into data, as Hugo's unmarshal, the format told by the text.
func (t *transformNS) Unmarshal(args ...any) (any, error) {
	if len(args) < 1 || len(args) > 2 {
		return nil, errors.New("unmarshal takes 1 or 2 arguments")
	}
	data := args[len(args)-1]
	if c, ok := data.(interface{ Content() (string, error) }); ok {
		s, err := c.Content()
		if err != nil {
			return nil, err
		}
		data = s
	}
	s, err := toString(data)
	if err != nil {
		return nil, errors.New("unmarshal: want a string or a resource")
	}
	if err := t.n.env().Size(s); err != nil {
		return nil, err
	}
	format := metadecoders.Default.FormatFromContentString(s)
	if format == "" {
		return nil, errors.New("unmarshal: the format of the text is not known")
	}
	v, err := metadecoders.Default.Unmarshal([]byte(s), format)
	if err != nil {
		return nil, fmt.Errorf("unmarshal: %w", err)
	}
	return t.n.sized(v, nil)
}

// StripTags removes HTML tags and comments, keeping the text as written.
func StripTags(s string) string {
	var b strings.Builder
	in, comment := false, false
	for i := 0; i < len(s); i++ {
		switch {
		case comment:
			if strings.HasPrefix(s[i:], "-->") {
				comment = false
				i += 2
			}
		case in:
			if s[i] == '>' {
				in = false
			}
		case strings.HasPrefix(s[i:], "<!--"):
			comment = true
			i += 3
		case s[i] == '<' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '!' || s[i+1] >= 'a' && s[i+1] <= 'z' || s[i+1] >= 'A' && s[i+1] <= 'Z'):
			in = true
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}
