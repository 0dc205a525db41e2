package funcs

import (
	"errors"
	"fmt"
	"html"
	"html/template"
	"regexp"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/jdkato/prose/transform"
)

// stringsNS is Hugo's strings namespace. Argument orders are Hugo's
// (trimPrefix PREFIX STRING, replace STRING OLD NEW).
type stringsNS struct{ n *namespaces }

func (s *stringsNS) str(v any) (string, error) {
	out, err := toString(v)
	if err != nil {
		return "", fmt.Errorf("expected a string, got %T", v)
	}
	return out, nil
}

// Chomp removes trailing newlines; HTML stays HTML.
func (s *stringsNS) Chomp(v any) (any, error) {
	str, err := s.str(v)
	if err != nil {
		return nil, err
	}
	res := strings.TrimRight(str, "\r\n")
	if _, ok := v.(template.HTML); ok {
		return template.HTML(res), nil
	}
	return res, nil
}

func (s *stringsNS) Contains(v, sub any) (bool, error) {
	a, err1 := s.str(v)
	b, err2 := s.str(sub)
	if err := errors.Join(err1, err2); err != nil {
		return false, err
	}
	return strings.Contains(a, b), nil
}

func (s *stringsNS) ContainsAny(v, chars any) (bool, error) {
	a, err1 := s.str(v)
	b, err2 := s.str(chars)
	if err := errors.Join(err1, err2); err != nil {
		return false, err
	}
	return strings.ContainsAny(a, b), nil
}

func (s *stringsNS) ContainsNonSpace(v any) (bool, error) {
	a, err := s.str(v)
	return strings.ContainsFunc(a, func(r rune) bool { return !unicode.IsSpace(r) }), err
}

// Count counts the occurrences of sub in v.
func (s *stringsNS) Count(sub, v any) (int, error) {
	a, err1 := s.str(sub)
	b, err2 := s.str(v)
	if err := errors.Join(err1, err2); err != nil {
		return 0, err
	}
	return strings.Count(b, a), nil
}

// CountRunes counts the non-space characters.
func (s *stringsNS) CountRunes(v any) (int, error) {
	a, err := s.str(v)
	n := 0
	for _, r := range stripTags(a) {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	return n, err
}

// RuneCount counts every character.
func (s *stringsNS) RuneCount(v any) (int, error) {
	a, err := s.str(v)
	return utf8.RuneCountInString(a), err
}

// CountWords counts the words of the text of HTML.
func (s *stringsNS) CountWords(v any) (int, error) {
	a, err := s.str(v)
	return len(strings.Fields(stripTags(a))), err
}

// FirstUpper upper-cases the first letter.
func (s *stringsNS) FirstUpper(v any) (string, error) {
	a, err := s.str(v)
	if err != nil || a == "" {
		return a, err
	}
	r, n := utf8.DecodeRuneInString(a)
	return string(unicode.ToUpper(r)) + a[n:], nil
}

func (s *stringsNS) HasPrefix(v, prefix any) (bool, error) {
	a, err1 := s.str(v)
	b, err2 := s.str(prefix)
	return strings.HasPrefix(a, b), errors.Join(err1, err2)
}

func (s *stringsNS) HasSuffix(v, suffix any) (bool, error) {
	a, err1 := s.str(v)
	b, err2 := s.str(suffix)
	return strings.HasSuffix(a, b), errors.Join(err1, err2)
}

// Repeat repeats v n times.
func (s *stringsNS) Repeat(n, v any) (string, error) {
	a, err := s.str(v)
	if err != nil {
		return "", err
	}
	k, err := toInt(n)
	if err != nil || k < 0 {
		return "", errors.New("repeat: the count must be a number, 0 or more")
	}
	if k > 0 && len(a) > (1<<30)/k {
		return "", errors.New("repeat: the result is too large")
	}
	return sizeFirst(s.n, len(a)*k, func() string { return strings.Repeat(a, k) })
}

// sizeFirst checks a result's size before making it.
func sizeFirst(n *namespaces, size int, make func() string) (string, error) {
	if err := n.env().Size(Bytes(size)); err != nil {
		return "", err
	}
	return make(), nil
}

// Bytes is a value Env.Size reads as that many bytes: the size of a
// result asked for before it is made.
type Bytes int

// Replace replaces old by new in v, every time or limit times.
func (s *stringsNS) Replace(v, old, new any, limit ...any) (string, error) {
	a, err1 := s.str(v)
	o, err2 := s.str(old)
	nw, err3 := s.str(new)
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", err
	}
	n := -1
	if len(limit) > 0 {
		var err error
		if n, err = toInt(limit[0]); err != nil {
			return "", errors.New("replace: the limit must be a number")
		}
	}
	count := strings.Count(a, o)
	if n >= 0 {
		count = min(count, n)
	}
	return sizeFirst(s.n, len(a)+count*(len(nw)-len(o)), func() string { return strings.Replace(a, o, nw, n) })
}

// ReplacePairs replaces each old, new pair.
func (s *stringsNS) ReplacePairs(args ...any) (string, error) {
	if len(args) < 3 || len(args)%2 == 0 {
		return "", errors.New("replacePairs: want the string last, after old, new pairs")
	}
	a, err := s.str(args[len(args)-1])
	if err != nil {
		return "", err
	}
	var pairs []string
	for _, p := range args[:len(args)-1] {
		ps, err := s.str(p)
		if err != nil {
			return "", err
		}
		pairs = append(pairs, ps)
	}
	grow := 0
	for i := 0; i < len(pairs); i += 2 {
		grow += strings.Count(a, pairs[i]) * max(len(pairs[i+1])-len(pairs[i]), 0)
	}
	return sizeFirst(s.n, len(a)+grow, func() string { return strings.NewReplacer(pairs...).Replace(a) })
}

// reCache keeps compiled expressions; templates use few.
var reCache sync.Map

func compileRE(expr string) (*regexp.Regexp, error) {
	if re, ok := reCache.Load(expr); ok {
		return re.(*regexp.Regexp), nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, err
	}
	if len(expr) < 1024 {
		reCache.Store(expr, re)
	}
	return re, nil
}

// FindRE returns the matches of expr in content, at most limit.
func (s *stringsNS) FindRE(expr, content any, limit ...any) ([]string, error) {
	re, a, n, err := s.reArgs(expr, content, limit)
	if err != nil {
		return nil, err
	}
	out := re.FindAllString(a, n)
	if out == nil {
		return []string{}, nil
	}
	_, err = s.n.sized(out, nil)
	return out, err
}

// FindRESubmatch returns the matches with their groups.
func (s *stringsNS) FindRESubmatch(expr, content any, limit ...any) ([][]string, error) {
	re, a, n, err := s.reArgs(expr, content, limit)
	if err != nil {
		return nil, err
	}
	out := re.FindAllStringSubmatch(a, n)
	if out == nil {
		return [][]string{}, nil
	}
	_, err = s.n.sized(out, nil)
	return out, err
}

func (s *stringsNS) reArgs(expr, content any, limit []any) (*regexp.Regexp, string, int, error) {
	e, err1 := s.str(expr)
	a, err2 := s.str(content)
	if err := errors.Join(err1, err2); err != nil {
		return nil, "", 0, err
	}
	re, err := compileRE(e)
	if err != nil {
		return nil, "", 0, err
	}
	n := -1
	if len(limit) > 0 {
		if n, err = toInt(limit[0]); err != nil {
			return nil, "", 0, errors.New("the limit must be a number")
		}
	}
	return re, a, n, nil
}

// ReplaceRE replaces the matches of pattern in v with repl ($1 for
// groups), every time or n times.
func (s *stringsNS) ReplaceRE(pattern, repl, v any, n ...any) (string, error) {
	p, err1 := s.str(pattern)
	r, err2 := s.str(repl)
	a, err3 := s.str(v)
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", err
	}
	re, err := compileRE(p)
	if err != nil {
		return "", err
	}
	limit := -1
	if len(n) > 0 {
		if limit, err = toInt(n[0]); err != nil {
			return "", errors.New("replaceRE: the count must be a number")
		}
	}
	matches := re.FindAllStringSubmatchIndex(a, limit)
	if matches == nil {
		return a, nil
	}
	if err := s.n.env().Size(Bytes(len(a) + len(matches)*len(r)*2)); err != nil {
		return "", err
	}
	var b []byte
	last := 0
	for _, m := range matches {
		b = append(b, a[last:m[0]]...)
		b = re.ExpandString(b, r, a, m)
		last = m[1]
	}
	b = append(b, a[last:]...)
	return s.n.sizedString(string(b), nil)
}

// SliceString is the characters from start to end.
func (s *stringsNS) SliceString(v any, startEnd ...any) (string, error) {
	a, err := s.str(v)
	if err != nil {
		return "", err
	}
	runes := []rune(a)
	start, end := 0, len(runes)
	if len(startEnd) > 2 {
		return "", errors.New("slicestr: too many arguments")
	}
	if len(startEnd) > 0 {
		if start, err = toInt(startEnd[0]); err != nil {
			return "", errors.New("slicestr: start must be a number")
		}
	}
	if len(startEnd) > 1 {
		if end, err = toInt(startEnd[1]); err != nil {
			return "", errors.New("slicestr: end must be a number")
		}
	}
	if start < 0 || end > len(runes) || start > end {
		return "", errors.New("slice bounds out of range")
	}
	return string(runes[start:end]), nil
}

// Split splits v at each delimiter.
func (s *stringsNS) Split(v any, delimiter string) ([]string, error) {
	a, err := s.str(v)
	if err != nil {
		return nil, err
	}
	out := strings.Split(a, delimiter)
	_, err = s.n.sized(out, nil)
	return out, err
}

// Substr is length characters from start (negative from the end).
func (s *stringsNS) Substr(v any, nums ...any) (string, error) {
	a, err := s.str(v)
	if err != nil {
		return "", err
	}
	runes := []rune(a)
	rlen := len(runes)
	var start, length int
	switch len(nums) {
	case 0:
		return "", errors.New("too few arguments")
	case 1:
		if start, err = toInt(nums[0]); err != nil {
			return "", errors.New("start argument must be an integer")
		}
		length = rlen
	case 2:
		if start, err = toInt(nums[0]); err != nil {
			return "", errors.New("start argument must be an integer")
		}
		if length, err = toInt(nums[1]); err != nil {
			return "", errors.New("length argument must be an integer")
		}
	default:
		return "", errors.New("too many arguments")
	}
	if rlen == 0 {
		return "", nil
	}
	if start < 0 {
		start += rlen
	}
	start = min(max(start, 0), rlen)
	end := start + length
	if length < 0 {
		end = rlen + length
	}
	end = min(max(end, 0), rlen)
	if start >= end {
		return "", nil
	}
	return string(runes[start:end]), nil
}

var apTitle = transform.NewTitleConverter(transform.APStyle)

// Title is title case in the AP style, Hugo's default.
func (s *stringsNS) Title(v any) (string, error) {
	a, err := s.str(v)
	return apTitle.Title(a), err
}

func (s *stringsNS) ToLower(v any) (string, error) {
	a, err := s.str(v)
	return strings.ToLower(a), err
}

func (s *stringsNS) ToUpper(v any) (string, error) {
	a, err := s.str(v)
	return strings.ToUpper(a), err
}

// Trim trims the characters of cutset from both ends.
func (s *stringsNS) Trim(v, cutset any) (string, error) {
	a, err1 := s.str(v)
	c, err2 := s.str(cutset)
	return strings.Trim(a, c), errors.Join(err1, err2)
}

func (s *stringsNS) TrimSpace(v any) (string, error) {
	a, err := s.str(v)
	return strings.TrimSpace(a), err
}

func (s *stringsNS) TrimLeft(cutset, v any) (string, error) {
	c, err1 := s.str(cutset)
	a, err2 := s.str(v)
	return strings.TrimLeft(a, c), errors.Join(err1, err2)
}

func (s *stringsNS) TrimRight(cutset, v any) (string, error) {
	c, err1 := s.str(cutset)
	a, err2 := s.str(v)
	return strings.TrimRight(a, c), errors.Join(err1, err2)
}

func (s *stringsNS) TrimPrefix(prefix, v any) (string, error) {
	p, err1 := s.str(prefix)
	a, err2 := s.str(v)
	return strings.TrimPrefix(a, p), errors.Join(err1, err2)
}

func (s *stringsNS) TrimSuffix(suffix, v any) (string, error) {
	p, err1 := s.str(suffix)
	a, err2 := s.str(v)
	return strings.TrimSuffix(a, p), errors.Join(err1, err2)
}

var tagRE = regexp.MustCompile(`^<(/)?([^ ]+?)(?:(\s*/)| .*?)?>`)

var singletTags = map[string]bool{"br": true, "col": true, "link": true, "base": true, "img": true, "param": true, "area": true, "hr": true, "input": true}

// Truncate cuts text to size characters at a word's end and adds the
// ellipsis (" …"); HTML keeps its tags closed.
func (s *stringsNS) Truncate(size any, options ...any) (template.HTML, error) {
	length, err := toInt(size)
	if err != nil {
		return "", err
	}
	var textArg any
	ellipsis := " …"
	switch len(options) {
	case 1:
		textArg = options[0]
	case 2:
		textArg = options[1]
		if ellipsis, err = s.str(options[0]); err != nil {
			return "", errors.New("ellipsis must be a string")
		}
		if _, ok := options[0].(template.HTML); !ok {
			ellipsis = html.EscapeString(ellipsis)
		}
	default:
		return "", errors.New("truncate requires a length and a string")
	}
	text, err := s.str(textArg)
	if err != nil {
		return "", errors.New("text must be a string")
	}
	_, isHTML := textArg.(template.HTML)
	if utf8.RuneCountInString(text) <= length {
		if isHTML {
			return template.HTML(text), nil
		}
		return template.HTML(html.EscapeString(text)), nil
	}
	type tag struct {
		name string
		pos  int
		open bool
	}
	var tags []tag
	var lastWord, lastNonSpace, cur, nextTag int
	for i, r := range text {
		if i < nextTag {
			continue
		}
		if isHTML {
			if m := tagRE.FindStringSubmatchIndex(text[i:]); len(m) > 0 && m[0] == 0 {
				nextTag = i + m[1]
				name := strings.Fields(text[i+m[4] : i+m[5]])[0]
				lastWord = lastNonSpace
				if !singletTags[name] && m[6] == -1 {
					tags = append(tags, tag{name: name, pos: i, open: m[2] == -1})
				}
				continue
			}
		}
		cur++
		switch {
		case unicode.IsSpace(r):
			lastWord = lastNonSpace
		case unicode.In(r, unicode.Han, unicode.Hangul, unicode.Hiragana, unicode.Katakana):
			lastWord = lastNonSpace
			lastNonSpace = i + utf8.RuneLen(r)
			if cur <= length {
				lastWord = lastNonSpace
			}
		default:
			lastNonSpace = i + utf8.RuneLen(r)
		}
		if cur > length {
			end := lastWord
			if end == 0 {
				end = i
			}
			if !isHTML {
				return template.HTML(html.EscapeString(text[:end]) + ellipsis), nil
			}
			var b strings.Builder
			b.WriteString(text[:end] + ellipsis)
			var closing *tag
			for k := len(tags) - 1; k >= 0; k-- {
				t := tags[k]
				if t.pos >= end || closing != nil {
					if closing != nil && closing.name == t.name {
						closing = nil
					}
					continue
				}
				if t.open {
					b.WriteString("</" + t.name + ">")
				} else {
					closing = &t
				}
			}
			return template.HTML(b.String()), nil
		}
	}
	if isHTML {
		return template.HTML(text), nil
	}
	return template.HTML(html.EscapeString(text)), nil
}

// stripTags removes HTML tags, keeping the text.
func stripTags(s string) string {
	if !strings.ContainsAny(s, "<>") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
		case r == '>' && in:
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
}
