package pipeline

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"unicode"
)

// The decoders' errors speak of tokens, contexts and contexts' values
// ("value is not allowed in this context. map key-value is pre-defined"),
// and sometimes on the line where the decoder gave up rather than where
// the author slipped (a quote left open on line 2 is found on line 9).
// explain turns them into what an author can act on: the key, what is
// wrong with it, and the line to fix. A message it has no words for is
// kept, prefixed with the key when one is known.

// fmError is a decoder error placed in the front matter: msg as the
// decoder says it, line within data (from 1; 0 when unknown).
type fmError struct {
	format string // "yaml", "toml" or "json"
	base   int    // the file's line before data's first
	data   []byte
	lines  []string
	line   int
	msg    string
}

// A rule matches a decoder message and says it in an author's words; it
// returns the line (within data) and the message, or ok false to leave
// the message to the next rule.
type rule struct {
	re  *regexp.Regexp
	say func(e *fmError, m []string) (line int, msg string, ok bool)
}

// explain returns the line (within data, from 1) and the message for a
// decoder error at line with message msg; base is the line of the file
// before data's first, for messages that name another line.
func explain(format string, data []byte, base, line int, msg string) (int, string) {
	e := &fmError{format: format, base: base, data: data, lines: strings.Split(string(data), "\n"), line: line, msg: msg}
	if format == "yaml" {
		// A quote left open swallows the lines after it; the decoder
		// fails further down, in words about what it found there.
		if l, q := e.openQuote(); l > 0 && (line == 0 || l <= line) {
			return l, e.keyOf(l) + ": unclosed quote (" + q + ")"
		}
	}
	var rules []rule
	switch format {
	case "yaml":
		rules = yamlRules
	case "toml":
		rules = tomlRules
	case "json":
		rules = jsonRules
	}
	for _, r := range rules {
		if m := r.re.FindStringSubmatch(msg); m != nil {
			if l, s, ok := r.say(e, m); ok {
				return l, s
			}
		}
	}
	if k := e.keyOf(line); k != "" && line > 0 {
		return line, k + ": " + msg
	}
	return line, format + ": " + msg
}

// text is line l of data (from 1), "" outside it.
func (e *fmError) text(l int) string {
	if l < 1 || l > len(e.lines) {
		return ""
	}
	return strings.TrimSuffix(e.lines[l-1], "\r")
}

// keyOf is the key that line l sets or, for a line that sets none (a
// list item, a continuation), the key of the nearest line above it that
// does; "" if there is none.
func (e *fmError) keyOf(l int) string {
	for ; l >= 1; l-- {
		if k := e.lineKey(e.text(l)); k != "" {
			return k
		}
	}
	return ""
}

// lineKey is the key a line sets, "" if it sets none.
func (e *fmError) lineKey(s string) string {
	s = strings.TrimSpace(s)
	switch e.format {
	case "toml":
		if strings.HasPrefix(s, "[") {
			return strings.Trim(s, "[] \t")
		}
		if i := strings.IndexByte(s, '='); i > 0 {
			return unquote(strings.TrimSpace(s[:i]))
		}
		if i := strings.IndexAny(s, ": \t"); i > 0 {
			return unquote(s[:i])
		}
	case "json":
		if strings.HasPrefix(s, `"`) {
			if i := strings.Index(s[1:], `"`); i >= 0 {
				return s[1 : i+1]
			}
		}
		if i := strings.IndexByte(s, ':'); i > 0 && !strings.ContainsAny(s[:i], `{}[]"`) {
			return strings.TrimSpace(s[:i])
		}
	default:
		for strings.HasPrefix(s, "- ") {
			s = strings.TrimSpace(s[2:])
		}
		if strings.HasPrefix(s, "#") {
			return ""
		}
		if i := keyEnd(s); i > 0 {
			return unquote(strings.TrimSpace(s[:i]))
		}
	}
	return ""
}

// keyEnd is where a YAML key ends: at ": ", or a ":" ending the line;
// -1 when the line has no key.
func keyEnd(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ':' && (i+1 == len(s) || s[i+1] == ' ' || s[i+1] == '\t') {
			return i
		}
		if i == 0 && (s[0] == '"' || s[0] == '\'') {
			if j := strings.IndexByte(s[1:], s[0]); j >= 0 {
				i = j + 1
			}
		}
	}
	return -1
}

func unquote(s string) string {
	if len(s) >= 2 && (s[0] == '"' || s[0] == '\'') && s[len(s)-1] == s[0] {
		return s[1 : len(s)-1]
	}
	return s
}

func indent(s string) int { return len(s) - len(strings.TrimLeft(s, " \t")) }

// openQuote finds a YAML value whose quote does not close on its line
// and whose continuation holds a line that looks like a key of the same
// mapping or one further out: a quote left open, not a string written on
// several lines. It returns the line and the quote, or 0.
func (e *fmError) openQuote() (int, string) {
	for l := 1; l <= len(e.lines); l++ {
		s := e.text(l)
		k := keyEnd(strings.TrimSpace(s))
		if k < 0 {
			continue
		}
		v := strings.TrimSpace(strings.TrimSpace(s)[k+1:])
		if v == "" || (v[0] != '"' && v[0] != '\'') {
			continue
		}
		if closesAt(v[1:], v[0]) >= 0 {
			continue
		}
		for m := l + 1; m <= len(e.lines); m++ {
			t := e.text(m)
			if strings.TrimSpace(t) != "" && indent(t) <= indent(s) && keyEnd(strings.TrimSpace(t)) > 0 {
				return l, string(v[0])
			}
			if closesAt(t, v[0]) >= 0 {
				break
			}
		}
	}
	return 0, ""
}

// closesAt is where quote q closes in s (a value's text after its
// opening quote), -1 if it does not: \" is escaped in double quotes, ”
// in single ones.
func closesAt(s string, q byte) int {
	for i := 0; i < len(s); i++ {
		switch {
		case q == '"' && s[i] == '\\':
			i++
		case s[i] == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			i++
		case s[i] == q:
			return i
		}
	}
	return -1
}

// opener is the line, at or above l, holding the last unmatched bracket
// open (one of "[{"), 0 if none: where a list or map left open starts.
func (e *fmError) opener(l int, open, close byte) int {
	depth := 0
	for ; l >= 1; l-- {
		s := e.text(l)
		for i := len(s) - 1; i >= 0; i-- {
			switch s[i] {
			case close:
				depth++
			case open:
				if depth == 0 {
					return l
				}
				depth--
			}
		}
	}
	return 0
}

// prevContent is the last line before l with something on it.
func (e *fmError) prevContent(l int) int {
	for l--; l >= 1; l-- {
		if strings.TrimSpace(e.text(l)) != "" {
			return l
		}
	}
	return 0
}

// nextContent is the first line after l with something on it.
func (e *fmError) nextContent(l int) int {
	for l++; l <= len(e.lines); l++ {
		if strings.TrimSpace(e.text(l)) != "" {
			return l
		}
	}
	return 0
}

// firstKey is the first line from 1 that sets key k, 0 if none.
func (e *fmError) firstKey(k string, before int) int {
	for l := 1; l < before; l++ {
		if e.lineKey(e.text(l)) == k {
			return l
		}
	}
	return 0
}

func at(e *fmError, l int, format string, args ...any) (int, string, bool) {
	return l, fmt.Sprintf(format, args...), true
}

func re(s string) *regexp.Regexp { return regexp.MustCompile(s) }

var yamlRules = []rule{
	{re(`could not find end character of (double|single)-quoted text`), func(e *fmError, m []string) (int, string, bool) {
		q := map[string]string{"double": `"`, "single": "'"}[m[1]]
		return at(e, e.line, "%s: unclosed quote (%s)", e.keyOf(e.line), q)
	}},
	{re(`mapping key "(.*)" already defined at \[(\d+):\d+\]`), func(e *fmError, m []string) (int, string, bool) {
		first, _ := strconv.Atoi(m[2])
		return at(e, e.line, "%s: set twice (first on line %d)", m[1], e.base+first)
	}},
	{re(`found character '\t' that cannot start any token`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a tab in the indentation (YAML indents with spaces)", e.keyOf(e.line))
	}},
	{re(`^value is not allowed in this context\. map key-value is pre-defined`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: text after the closing quote (quote the whole value, and write a quote inside it as \\\")", e.keyOf(e.line))
	}},
	{re(`^mapping value is not allowed in this context|^found an invalid key for this map`), func(e *fmError, m []string) (int, string, bool) {
		// The decoder may point at the line before the one at fault.
		for _, l := range []int{e.line, e.nextContent(e.line)} {
			s := strings.TrimSpace(e.text(l))
			if strings.HasPrefix(s, ":") {
				return at(e, l, "a value without a key")
			}
			p := e.prevContent(l)
			ps := strings.TrimSpace(e.text(p))
			if k := keyEnd(ps); p > 0 && k > 0 && strings.TrimSpace(ps[k+1:]) != "" && indent(e.text(l)) > indent(e.text(p)) {
				return at(e, l, "%s: indented under %s, which already has a value", e.lineKey(s), e.lineKey(ps))
			}
			if k := keyEnd(s); k > 0 && keyEnd(strings.TrimSpace(s[k+1:])) >= 0 {
				return at(e, l, "%s: a value containing \": \" must be quoted", e.lineKey(s))
			}
		}
		return false0()
	}},
	{re(`^value is not allowed in this context`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: indented differently from the lines above it", e.keyOf(e.line))
	}},
	{re(`sequence end token '\]' not found|',' or '\]' must be specified`), func(e *fmError, m []string) (int, string, bool) {
		if l := e.opener(e.line, '[', ']'); l > 0 {
			return at(e, l, "%s: unclosed [ (] missing)", e.keyOf(l))
		}
		return false0()
	}},
	{re(`could not find flow mapping end token '\}'|could not find flow map content`), func(e *fmError, m []string) (int, string, bool) {
		if l := e.opener(e.line, '{', '}'); l > 0 {
			return at(e, l, "%s: unclosed { (} missing)", e.keyOf(l))
		}
		return false0()
	}},
	{re(`sequence was used where mapping is expected`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "a list where key: value lines are expected")
	}},
	{re(`could not find alias "(.*)"`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: *%s names no anchor (&%s)", e.keyOf(e.line), m[1], m[1])
	}},
	{re(`undefined anchor value`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: an anchor (&name) without a value", e.keyOf(e.line))
	}},
	{re(`unexpected key name`), func(e *fmError, m []string) (int, string, bool) {
		s := strings.TrimSpace(e.text(e.line))
		if i := strings.IndexByte(s, ':'); i > 0 {
			return at(e, e.line, "%s: a space is needed after the colon", s[:i])
		}
		return false0()
	}},
	{re(`'(.)' is a reserved character`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a value starting with %s must be quoted", e.keyOf(e.line), m[1])
	}},
	{re(`non-map value is specified`), func(e *fmError, m []string) (int, string, bool) {
		p := e.prevContent(e.line)
		if v := strings.TrimSpace(e.text(p)); strings.HasSuffix(v, "|") || strings.HasSuffix(v, ">") || strings.HasSuffix(v, "|-") || strings.HasSuffix(v, ">-") {
			return at(e, e.line, "%s: the lines of a | or > block must be indented", e.keyOf(p))
		}
		return at(e, e.line, "%q is not a key: value line", truncate(strings.TrimSpace(e.text(e.line)), 40))
	}},
}

var tomlRules = []rule{
	{re(`^(basic|literal) strings cannot have new lines`), func(e *fmError, m []string) (int, string, bool) {
		q := map[string]string{"basic": `"`, "literal": "'"}[m[1]]
		return at(e, e.line, "%s: unclosed quote (%s)", e.keyOf(e.line), q)
	}},
	{re(`^expected '=' after key`), func(e *fmError, m []string) (int, string, bool) {
		s := strings.TrimSpace(e.text(e.line))
		if i := strings.IndexByte(s, ':'); i > 0 && !strings.Contains(s, "=") {
			return at(e, e.line, "%s: TOML writes key = value, not key: value", unquote(s[:i]))
		}
		if i := strings.IndexByte(s, '='); i > 0 && strings.ContainsAny(strings.TrimSpace(s[:i]), " \t") {
			return at(e, e.line, "%q: a key with spaces must be quoted", strings.TrimSpace(s[:i]))
		}
		return at(e, e.line, "%s: = expected after the key", e.lineKey(s))
	}},
	{re(`^key (.*) is already defined`), func(e *fmError, m []string) (int, string, bool) {
		k := e.lineKey(e.text(e.line))
		return at(e, e.line, "%s: set twice (first on line %d)", k, e.base+e.firstKey(k, e.line))
	}},
	{re(`^table (.*) already exists`), func(e *fmError, m []string) (int, string, bool) {
		k := e.lineKey(e.text(e.line))
		return at(e, e.line, "[%s]: table defined twice (first on line %d)", k, e.base+e.firstKey(k, e.line))
	}},
	{re(`^unexpected character U\+000[AD] at start of value`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a value is missing after =", e.keyOf(e.line))
	}},
	{re(`^unexpected character U\+[0-9A-F]+ '(.)' at start of value`), func(e *fmError, m []string) (int, string, bool) {
		s := e.text(e.line)
		if i := strings.IndexByte(s, '='); i > 0 {
			switch strings.ToLower(strings.TrimSpace(s[i+1:])) {
			case "yes", "no", "on", "off", "true", "false":
				return at(e, e.line, "%s: write true or false, in lower case", e.keyOf(e.line))
			}
		}
		if r := []rune(m[1]); len(r) == 1 && unicode.IsLetter(r[0]) {
			return at(e, e.line, "%s: text must be quoted (\"…\")", e.keyOf(e.line))
		}
		return at(e, e.line, "%s: a value cannot start with %s", e.keyOf(e.line), m[1])
	}},
	{re(`^expected ',' or '\]' after array value|^array is incomplete`), func(e *fmError, m []string) (int, string, bool) {
		if l := e.opener(e.line, '[', ']'); l > 0 && (l < e.line || !strings.Contains(e.text(e.line), "]")) {
			return at(e, l, "%s: unclosed [ (] missing)", e.keyOf(l))
		}
		return at(e, e.line, "%s: a comma is missing between the list's items", e.keyOf(e.line))
	}},
	{re(`^expected newline but got U\+[0-9A-F]+ '(.)'`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: unexpected %s after the value (one key = value a line)", e.keyOf(e.line), m[1])
	}},
	{re(`^expected keyword "(.*)"`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: not a value (did you mean %s, or a quoted text?)", e.keyOf(e.line), m[1])
	}},
	{re(`impossible date|invalid date|parsing time|month|day`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: not a valid date", e.keyOf(e.line))
	}},
	{re(`^expected '\]' to close table name|^expected '\]\]' to close array table name`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: ] missing at the end of the table name", strings.TrimSpace(e.text(e.line)))
	}},
}

var jsonRules = []rule{
	{re(`^invalid character '\}' looking for beginning of object key string`), func(e *fmError, m []string) (int, string, bool) {
		p := e.prevContent(e.line + 1)
		if !strings.HasSuffix(strings.TrimSpace(e.text(p)), ",") {
			p = e.prevContent(e.line)
		}
		return at(e, p, "%s: a comma after the last member (JSON allows none)", e.keyOf(p))
	}},
	{re(`^invalid character '\]' looking for beginning of value`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a comma after the list's last item (JSON allows none)", e.keyOf(e.line))
	}},
	{re(`^invalid character '"' after object key:value pair`), func(e *fmError, m []string) (int, string, bool) {
		p := e.prevContent(e.line)
		if p == 0 || strings.HasPrefix(strings.TrimSpace(e.text(e.line)), `"`) == false {
			p = e.line
		}
		return at(e, p, "%s: a comma is missing after the value", e.keyOf(p))
	}},
	{re(`^invalid character '"' after array element`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a comma is missing between the list's items", e.keyOf(e.line))
	}},
	{re(`^invalid character '"' after object key$`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a colon is missing after the key", e.keyOf(e.line))
	}},
	{re(`^invalid character '\\'' looking for beginning of (value|object key string)`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: JSON quotes with \" only", e.keyOf(e.line))
	}},
	{re(`^invalid character '(.)' looking for beginning of object key string`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: a JSON key must be quoted (\"…\")", e.keyOf(e.line))
	}},
	{re(`^invalid character '(.)' (looking for beginning of value|after object key:value pair|in numeric literal|in literal)`), func(e *fmError, m []string) (int, string, bool) {
		s := strings.TrimSpace(e.text(e.line))
		if k := e.lineKey(s); k == "" && (m[2] == "after object key:value pair") {
			return at(e, e.line, "} missing: the front matter does not end before this line")
		}
		return at(e, e.line, "%s: not a JSON value (quote text as \"…\"; true, false and null are lower case)", e.keyOf(e.line))
	}},
	{re(`^invalid character '\\n' in string literal`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "%s: unclosed quote (\")", e.keyOf(e.line))
	}},
	{re(`^json: cannot unmarshal (array|string|number|bool) into`), func(e *fmError, m []string) (int, string, bool) {
		return at(e, e.line, "the front matter must be a JSON object ({…})")
	}},
}

func false0() (int, string, bool) { return 0, "", false }

func truncate(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
