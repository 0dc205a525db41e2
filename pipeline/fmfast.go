package pipeline

import (
	"strings"
	"unicode/utf8"

	"github.com/goccy/go-yaml/token"
)

// Hugo's YAML decoder (goccy/go-yaml under metadecoders) is general and
// slow: it tokenizes, builds an AST and decodes it through reflection,
// 37 µs and about 120 allocations for a five-line front matter, which was
// 3 s of CPU of a cold start at 100,000 posts. Nearly every real front
// matter is a flat list of keys with one-line scalars and lists, so
// fastYAML decodes that subset directly, into exactly the values the
// decoder gives, and says no to anything else, which then goes to the
// decoder. FuzzFastYAML and TestFastYAML hold the two equal on every
// input the fast path accepts (and the fast path never accepts what the
// decoder rejects).
//
// The subset, line by line: blank lines and comment lines; a key at the
// start of a line (ASCII letters, digits, _ and -, starting with a letter
// or _), a colon, then
//
//   - nothing (a null, or a block sequence on the following lines, each
//     "- " and one scalar, at one indentation);
//   - a double-quoted string with the escapes \" \\ \/ \n \t, or a
//     single-quoted one, on one line;
//   - a flow sequence of such strings and plain scalars on one line,
//     without nesting;
//   - a plain scalar on one line: null, true, false in their YAML 1.2
//     spellings, a number as the decoder reads numbers (token.ToNumber,
//     its own function), else a string (dates are strings to the decoder
//     too);
//
// each maybe followed by a comment. Anything else (tabs, CR, indicators
// such as & * ! | > %, nesting, multi-line scalars, other escapes,
// duplicate keys, the YAML 1.1 spellings the decoder reads as strings are
// fine but .inf and .nan are not taken) is left to the decoder.

// maxFastKeys bounds the keys fastYAML takes; more go to the decoder
// (and its bounds, fmlimits.go).
const maxFastKeys = 200

// fastYAML decodes YAML front matter data in the simple subset above.
// ok is false when data is outside it; m is then nil.
func fastYAML(data string) (m map[string]any, ok bool) {
	if !fastYAMLChars(data) {
		return nil, false
	}
	m = make(map[string]any, 8)
	for len(data) > 0 {
		line, rest := cutLine(data)
		data = rest
		if blankOrComment(line) {
			continue
		}
		key, value, ok := fastKey(line)
		if !ok || len(m) >= maxFastKeys {
			return nil, false
		}
		if _, dup := m[key]; dup {
			return nil, false // the decoder's error
		}
		if value != "" {
			v, ok := fastValue(value)
			if !ok {
				return nil, false
			}
			m[key] = v
			if !nextIsKey(data) {
				return nil, false // a continuation line
			}
			continue
		}
		// A null or a block sequence.
		seq, rest, ok := fastBlockSequence(data)
		if !ok {
			return nil, false
		}
		data = rest
		if seq == nil {
			m[key] = nil
		} else {
			m[key] = seq
		}
	}
	return m, true
}

// fastYAMLChars reports whether data is UTF-8 with none of what the
// subset leaves to the decoder wherever it is: control characters but
// the newline (tabs and CR among them), a byte order mark, the Unicode
// line separators. (parseContent refuses invalid UTF-8 before.)
func fastYAMLChars(data string) bool {
	if !utf8.ValidString(data) {
		return false
	}
	for i := 0; i < len(data); i++ {
		c := data[i]
		switch {
		case c == '\n':
		case c < 0x20 || c == 0x7f:
			return false
		case c == 0xC2 && i+1 < len(data) && data[i+1] == 0x85: // NEL
			return false
		case c == 0xE2 && i+2 < len(data) && data[i+1] == 0x80 && (data[i+2] == 0xA8 || data[i+2] == 0xA9): // LS, PS
			return false
		case c == 0xEF && i+2 < len(data) && data[i+1] == 0xBB && data[i+2] == 0xBF: // BOM
			return false
		}
	}
	return true
}

// cutLine splits data at its first newline.
func cutLine(data string) (line, rest string) {
	if i := strings.IndexByte(data, '\n'); i >= 0 {
		return data[:i], data[i+1:]
	}
	return data, ""
}

// blankOrComment reports whether a line is spaces, maybe then a comment.
func blankOrComment(line string) bool {
	s := strings.TrimLeft(line, " ")
	return s == "" || s[0] == '#'
}

// nextIsKey reports whether what follows a key's one-line value is
// another key or the end: the next line that is not blank nor a comment
// starts at the margin (more indented, it would continue the value).
func nextIsKey(data string) bool {
	for len(data) > 0 {
		line, rest := cutLine(data)
		if !blankOrComment(line) {
			return line[0] != ' '
		}
		data = rest
	}
	return true
}

// fastKey splits a key line into its key and the value after the colon
// (trimmed, "" when there is none but a comment).
func fastKey(line string) (key, value string, ok bool) {
	i := 0
	for i < len(line) && isKeyByte(line[i], i == 0) {
		i++
	}
	if i == 0 || i >= len(line) || line[i] != ':' {
		return "", "", false
	}
	key = line[:i]
	switch key {
	case "null", "Null", "NULL", "true", "True", "TRUE", "false", "False", "FALSE":
		return "", "", false // not a string key to the decoder
	}
	rest := line[i+1:]
	if rest != "" && rest[0] != ' ' {
		return "", "", false
	}
	rest = strings.Trim(rest, " ")
	if rest != "" && rest[0] == '#' {
		rest = ""
	}
	return key, rest, true
}

func isKeyByte(c byte, first bool) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', c == '_':
		return true
	case '0' <= c && c <= '9', c == '-':
		return !first
	}
	return false
}

// fastValue decodes a one-line value: a quoted string, a flow sequence
// or a plain scalar, maybe followed by a comment; value has no leading
// or trailing spaces.
func fastValue(value string) (any, bool) {
	switch value[0] {
	case '"', '\'':
		s, rest, ok := fastQuoted(value)
		if !ok || !endOfValue(rest) {
			return nil, false
		}
		return s, true
	case '[':
		return fastFlowSequence(value)
	}
	return fastPlain(stripComment(value), false)
}

// endOfValue reports whether what follows a value on its line is nothing
// or a comment.
func endOfValue(rest string) bool {
	s := strings.TrimLeft(rest, " ")
	return s == "" || (s[0] == '#' && len(s) < len(rest))
}

// stripComment cuts a plain value at its comment (a # after a space)
// and trims the spaces before it.
func stripComment(value string) string {
	if i := strings.Index(value, " #"); i >= 0 {
		value = value[:i]
	}
	return strings.TrimRight(value, " ")
}

// fastQuoted reads the quoted string at the start of s, returning it and
// what follows its closing quote.
func fastQuoted(s string) (string, string, bool) {
	q := s[0]
	var b []byte // nil until an escape needs a copy
	for i := 1; i < len(s); i++ {
		c := s[i]
		switch {
		case c == q && q == '\'' && i+1 < len(s) && s[i+1] == '\'':
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[1:i]...)
			}
			b = append(b, '\'')
			i++
		case c == q:
			if b == nil {
				return s[1:i], s[i+1:], true
			}
			return string(b), s[i+1:], true
		case c == '\\' && q == '"':
			if i+1 >= len(s) {
				return "", "", false
			}
			var r byte
			switch s[i+1] {
			case '"', '\\', '/':
				r = s[i+1]
			case 'n':
				r = '\n'
			case 't':
				r = '\t'
			default:
				return "", "", false
			}
			if b == nil {
				b = append(make([]byte, 0, len(s)), s[1:i]...)
			}
			b = append(b, r)
			i++
		default:
			if b != nil {
				b = append(b, c)
			}
		}
	}
	return "", "", false // not closed on this line
}

// fastFlowSequence decodes a one-line flow sequence of scalars.
func fastFlowSequence(value string) (any, bool) {
	s := value[1:]
	out := make([]any, 0, 4)
	for {
		s = strings.TrimLeft(s, " ")
		if s == "" {
			return nil, false
		}
		if s[0] == ']' {
			if len(out) > 0 {
				return nil, false // a trailing comma
			}
			return out, endOfValue(s[1:])
		}
		var item any
		switch s[0] {
		case '"', '\'':
			q, rest, ok := fastQuoted(s)
			if !ok {
				return nil, false
			}
			item, s = q, strings.TrimLeft(rest, " ")
		default:
			end := strings.IndexAny(s, ",]")
			if end < 0 {
				return nil, false
			}
			text := strings.TrimRight(s[:end], " ")
			if strings.Contains(text, " #") {
				return nil, false // a comment inside the brackets
			}
			v, ok := fastPlain(text, true)
			if !ok {
				return nil, false
			}
			item, s = v, s[end:]
		}
		out = append(out, item)
		if s == "" {
			return nil, false
		}
		switch s[0] {
		case ']':
			return out, endOfValue(s[1:])
		case ',':
			s = s[1:]
		default:
			return nil, false
		}
	}
}

// fastBlockSequence reads the block sequence that may follow a key with
// no value: lines "- scalar" at one indentation. It returns nil (a null
// value) when the next line is another key, and the data after the
// sequence.
func fastBlockSequence(data string) ([]any, string, bool) {
	var out []any
	indent := -1
	for len(data) > 0 {
		line, rest := cutLine(data)
		if blankOrComment(line) {
			data = rest
			continue
		}
		n := len(line) - len(strings.TrimLeft(line, " "))
		item, ok := strings.CutPrefix(line[n:], "- ")
		switch {
		case !ok && n == 0 && line[0] != '-':
			return out, data, true // the next key
		case !ok:
			return nil, "", false
		case indent >= 0 && n != indent:
			return nil, "", false
		}
		indent = n
		item = strings.Trim(item, " ")
		if item == "" || item[0] == '[' || item[0] == '#' {
			return nil, "", false
		}
		v, ok := fastValue(item)
		if !ok {
			return nil, "", false
		}
		if out == nil {
			out = make([]any, 0, 4)
		}
		out = append(out, v)
		data = rest
		if !nextIsKey(data) && !nextIsItem(data, n) {
			return nil, "", false
		}
	}
	return out, "", true
}

// nextIsItem reports whether the next line that is not blank nor a
// comment is an item at indentation n.
func nextIsItem(data string, n int) bool {
	for len(data) > 0 {
		line, rest := cutLine(data)
		if !blankOrComment(line) {
			return len(line) > n+1 && strings.TrimLeft(line[:n], " ") == "" && line[n] == '-' && line[n+1] == ' '
		}
		data = rest
	}
	return false
}

// fastPlain decodes a plain scalar as the decoder does (token.New):
// null, a boolean, a number, else a string. flow is true inside a flow
// sequence. ok is false for what the subset leaves to the decoder.
func fastPlain(s string, flow bool) (any, bool) {
	if s == "" {
		return nil, false
	}
	switch c := s[0]; c {
	case '-':
		if len(s) < 2 || !('0' <= s[1] && s[1] <= '9') {
			return nil, false
		}
	case '?', ':', ',', '[', ']', '{', '}', '#', '&', '*', '!', '|', '>', '\'', '"', '%', '@', '`':
		return nil, false
	}
	if strings.Contains(s, ": ") || s[len(s)-1] == ':' {
		return nil, false
	}
	if flow && strings.ContainsAny(s, "{}[]") {
		return nil, false
	}
	switch s {
	case "null", "Null", "NULL", "~":
		return nil, true
	case "true", "True", "TRUE":
		return true, true
	case "false", "False", "FALSE":
		return false, true
	case ".inf", ".Inf", ".INF", "-.inf", "-.Inf", "-.INF", ".nan", ".NaN", ".NAN":
		return nil, false
	}
	if strings.ContainsAny(s, "0123456789") {
		if num := token.ToNumber(s); num != nil {
			return num.Value, true
		}
	}
	return s, true
}
