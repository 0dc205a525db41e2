package export

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// folioKeys are the keys of wrangler.jsonc that folio writes on every
// build, in the order a new file has them. Every other key (name once
// written, account_id, routes, vars, observability, …) is the author's
// and kept as written, comments included.
var folioKeys = []string{"main", "compatibility_date", "rules", "assets"}

// folioValues are the values of folioKeys.
func folioValues() map[string]any {
	type rule struct {
		Type        string   `json:"type"`
		Globs       []string `json:"globs"`
		Fallthrough bool     `json:"fallthrough"`
	}
	type assets struct {
		Directory        string `json:"directory"`
		Binding          string `json:"binding"`
		RunWorkerFirst   bool   `json:"run_worker_first"`
		HTMLHandling     string `json:"html_handling"`
		NotFoundHandling string `json:"not_found_handling"`
	}
	return map[string]any{
		"main":               WorkerFile,
		"compatibility_date": CompatibilityDate,
		// site.json is the Worker's table: a text module, parsed once
		// when the Worker starts, never code.
		"rules": []rule{{Type: "Text", Globs: []string{"**/site.json"}}},
		// Every answer carries headers only the Worker knows (serve's
		// ETag, CORS, Link, Vary), so it runs first on every path and
		// reads the files through the binding, which hands them over as
		// they are: no HTML or 404 handling of its own.
		"assets": assets{Directory: "./" + PublicDir, Binding: "ASSETS", RunWorkerFirst: true, HTMLHandling: "none", NotFoundHandling: "none"},
	}
}

const wranglerHeader = `// The Cloudflare Workers project of this site, written by
// "folio build --cloudflare". "npx wrangler dev" serves it on this machine,
// "npx wrangler deploy" publishes it.
//
// Each build rewrites public/, worker/ and the keys main,
// compatibility_date, rules and assets below; it keeps every other key
// and comment of this file, so add your own here (account_id, routes,
// observability, …).
`

// wranglerConfig is existing (a wrangler.jsonc, or nil) with folio's keys
// set: a new file has name too; in an existing one each of folio's keys
// is replaced where it stands, or added at the end, and the rest stays
// byte for byte.
func wranglerConfig(existing []byte, name string) ([]byte, error) {
	values := folioValues()
	if existing == nil {
		var b strings.Builder
		b.WriteString(wranglerHeader)
		b.WriteString("{\n")
		b.WriteString(`  "name": ` + jsonValue(name) + ",\n")
		for i, k := range folioKeys {
			b.WriteString("  " + jsonValue(k) + ": " + jsonValue(values[k]))
			if i < len(folioKeys)-1 {
				b.WriteString(",")
			}
			b.WriteString("\n")
		}
		b.WriteString("}\n")
		return []byte(b.String()), nil
	}
	obj, err := scanObject(existing)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	at := 0
	seen := map[string]bool{}
	for _, m := range obj.members {
		v, ours := values[m.key]
		if !ours {
			continue
		}
		seen[m.key] = true
		out.Write(existing[at:m.valueStart])
		out.WriteString(jsonValue(v))
		at = m.valueEnd
	}
	var missing []string
	if !slices.ContainsFunc(obj.members, func(m jsoncMember) bool { return m.key == "name" }) {
		missing = append(missing, `  "name": `+jsonValue(name))
	}
	for _, k := range folioKeys {
		if !seen[k] {
			missing = append(missing, "  "+jsonValue(k)+": "+jsonValue(values[k]))
		}
	}
	if len(missing) == 0 {
		out.Write(existing[at:])
		return out.Bytes(), nil
	}
	// New keys go after the last member, in the style of the file: a
	// trailing comma stays trailing.
	insert, text := obj.close, "\n"+strings.Join(missing, ",\n")
	if n := len(obj.members); n > 0 {
		last := obj.members[n-1]
		if last.comma >= 0 {
			insert, text = last.comma+1, text+","
		} else {
			insert, text = last.valueEnd, ","+text
		}
	} else {
		text += "\n"
	}
	out.Write(existing[at:insert])
	out.WriteString(text)
	out.Write(existing[insert:])
	return out.Bytes(), nil
}

// jsonValue is v as JSON, indented for a member of the top-level object.
func jsonValue(v any) string {
	b, _ := json.MarshalIndent(v, "  ", "  ")
	return string(b)
}

// A jsoncObject is where the members of a top-level JSONC object are:
// byte offsets of each value, and of the comma after it (-1: none), and
// of the closing brace.
type jsoncObject struct {
	members []jsoncMember
	close   int
}

type jsoncMember struct {
	key                         string
	valueStart, valueEnd, comma int
}

// scanObject reads src as JSON with comments and trailing commas (the
// JSONC Wrangler reads) whose value is an object, and says where its
// members are. A mistake is an error naming the line.
func scanObject(src []byte) (*jsoncObject, error) {
	s := &jsoncScanner{src: src}
	s.space()
	if s.peek() != '{' {
		return nil, s.errorf("the configuration must be one object")
	}
	obj := &jsoncObject{}
	s.pos++
	for {
		s.space()
		if s.peek() == '}' {
			obj.close = s.pos
			s.pos++
			break
		}
		start := s.pos
		if s.peek() != '"' {
			return nil, s.errorf("want a quoted key or }")
		}
		if err := s.value(); err != nil {
			return nil, err
		}
		var key string
		if err := json.Unmarshal(src[start:s.pos], &key); err != nil {
			return nil, s.errorf("key: %v", err)
		}
		s.space()
		if s.peek() != ':' {
			return nil, s.errorf("want : after %q", key)
		}
		s.pos++
		s.space()
		m := jsoncMember{key: key, valueStart: s.pos, comma: -1}
		if err := s.value(); err != nil {
			return nil, err
		}
		m.valueEnd = s.pos
		s.space()
		if s.peek() == ',' {
			m.comma = s.pos
			s.pos++
		} else if s.peek() != '}' {
			return nil, s.errorf("want , or } after the value of %q", key)
		}
		obj.members = append(obj.members, m)
	}
	s.space()
	if s.pos < len(src) {
		return nil, s.errorf("text after the configuration's object")
	}
	return obj, nil
}

type jsoncScanner struct {
	src []byte
	pos int
}

func (s *jsoncScanner) peek() byte {
	if s.pos < len(s.src) {
		return s.src[s.pos]
	}
	return 0
}

func (s *jsoncScanner) errorf(format string, args ...any) error {
	line := 1 + bytes.Count(s.src[:min(s.pos, len(s.src))], []byte("\n"))
	return fmt.Errorf("line %d: %s", line, fmt.Sprintf(format, args...))
}

// space skips white space and comments.
func (s *jsoncScanner) space() error {
	for s.pos < len(s.src) {
		switch c := s.src[s.pos]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			s.pos++
		case bytes.HasPrefix(s.src[s.pos:], []byte("//")):
			if i := bytes.IndexByte(s.src[s.pos:], '\n'); i >= 0 {
				s.pos += i + 1
			} else {
				s.pos = len(s.src)
			}
		case bytes.HasPrefix(s.src[s.pos:], []byte("/*")):
			i := bytes.Index(s.src[s.pos+2:], []byte("*/"))
			if i < 0 {
				return s.errorf("a comment that does not end")
			}
			s.pos += i + 4
		default:
			return nil
		}
	}
	return nil
}

// value skips one value: a string, a number or literal, or an array or
// object (with comments and trailing commas inside).
func (s *jsoncScanner) value() error {
	if err := s.space(); err != nil {
		return err
	}
	switch c := s.peek(); c {
	case '"':
		for i := s.pos + 1; i < len(s.src); i++ {
			switch s.src[i] {
			case '\\':
				i++
			case '"':
				s.pos = i + 1
				return nil
			case '\n':
				return s.errorf("a string that does not end on its line")
			}
		}
		return s.errorf("a string that does not end")
	case '{', '[':
		end := byte('}')
		if c == '[' {
			end = ']'
		}
		s.pos++
		for {
			if err := s.space(); err != nil {
				return err
			}
			if s.peek() == end {
				s.pos++
				return nil
			}
			if c == '{' {
				if s.peek() != '"' {
					return s.errorf("want a quoted key")
				}
				if err := s.value(); err != nil {
					return err
				}
				s.space()
				if s.peek() != ':' {
					return s.errorf("want :")
				}
				s.pos++
			}
			if err := s.value(); err != nil {
				return err
			}
			s.space()
			switch s.peek() {
			case ',':
				s.pos++
			case end:
			default:
				return s.errorf("want , or %c", end)
			}
		}
	case 0:
		return s.errorf("want a value, found the end")
	}
	start := s.pos
	for s.pos < len(s.src) {
		c := rune(s.src[s.pos])
		if !unicode.IsLetter(c) && !unicode.IsDigit(c) && !strings.ContainsRune("+-.", c) {
			break
		}
		s.pos++
	}
	if s.pos == start {
		return s.errorf("want a value, found %q", s.src[s.pos])
	}
	return nil
}
