package pipeline

import (
	"errors"
	"testing"
	"time"
)

// TestFrontMatterErrorsInAuthorsWords (issue 14): a broken front matter
// is reported on the line the author must fix, naming the key and what
// is wrong with it, not the decoder's internals ("value is not allowed
// in this context. map key-value is pre-defined", two lines too low).
// Each message is what folio check prints after "path:line: ".
func TestFrontMatterErrorsInAuthorsWords(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line      int
		msg       string
	}{
		// YAML
		{"yaml quote left open", "---\ntitle: \"Hello\ndate: 2024-01-01\ndescription: \"x\"\n---\n", 2, `title: unclosed quote (")`},
		{"yaml single quote left open", "---\ndate: 2024-01-01\ntitle: 'Hello\n---\n", 3, `title: unclosed quote (')`},
		{"yaml tab indentation", "---\ntitle: T\ndate: 2024-01-01\ntags:\n\t- a\n---\n", 5, "tags: a tab in the indentation (YAML indents with spaces)"},
		{"yaml key twice", "---\ntitle: A\ndate: 2024-01-01\ntitle: B\n---\n", 4, "title: set twice (first on line 2)"},
		{"yaml colon in value", "---\ntitle: Go: the good parts\ndate: 2024-01-01\n---\n", 2, `title: a value containing ": " must be quoted`},
		{"yaml key indented under a value", "---\ntitle: T\n  date: 2024-01-01\n---\n", 3, "date: indented under title, which already has a value"},
		{"yaml list item out of line", "---\ntitle: T\ndate: 2024-01-01\ntags:\n  - a\n - b\n---\n", 6, "tags: indented differently from the lines above it"},
		{"yaml list left open", "---\ntitle: T\ndate: 2024-01-01\ntags: [a, b\n---\n", 4, "tags: unclosed [ (] missing)"},
		{"yaml map left open", "---\ntitle: T\ndate: 2024-01-01\nparams: {a: 1\n---\n", 4, "params: unclosed { (} missing)"},
		{"yaml no space after colon", "---\ntitle:T\ndate: 2024-01-01\n---\n", 2, "title: a space is needed after the colon"},
		{"yaml text after closing quote", "---\ntitle: T\ndate: 2024-01-01\ndescription: \"say \"hi\"\"\n---\n", 4, `description: text after the closing quote (quote the whole value, and write a quote inside it as \")`},
		{"yaml reserved character", "---\ntitle: @home\ndate: 2024-01-01\n---\n", 2, "title: a value starting with @ must be quoted"},
		{"yaml alias without anchor", "---\ntitle: T\ndate: 2024-01-01\nx: *nope\n---\n", 4, "x: *nope names no anchor (&nope)"},
		{"yaml list instead of keys", "---\n- a\n- b\n---\n", 2, "a list where key: value lines are expected"},
		{"yaml line without a key", "---\ntitle: T\nfoo\ndate: 2024-01-01\n---\n", 3, `"foo" is not a key: value line`},
		{"yaml value without a key", "---\ntitle: T\ndate: 2024-01-01\n: x\n---\n", 4, "a value without a key"},
		// TOML
		{"toml quote left open", "+++\ntitle = \"Hello\ndate = 2024-01-01\n+++\n", 2, `title: unclosed quote (")`},
		{"toml written as yaml", "+++\ntitle: \"a\"\ndate = 2024-01-01\n+++\n", 2, "title: TOML writes key = value, not key: value"},
		{"toml key twice", "+++\ntitle = \"a\"\ndate = 2024-01-01\ntitle = \"b\"\n+++\n", 4, "title: set twice (first on line 2)"},
		{"toml unquoted text", "+++\ntitle = Hello\ndate = 2024-01-01\n+++\n", 2, `title: text must be quoted ("…")`},
		{"toml list left open", "+++\ntitle = \"a\"\ntags = [\"a\", \"b\"\ndate = 2024-01-01\n+++\n", 3, "tags: unclosed [ (] missing)"},
		{"toml impossible date", "+++\ntitle = \"a\"\ndate = 2024-13-01\n+++\n", 3, "date: not a valid date"},
		{"toml table name left open", "+++\ntitle = 'a'\ndate = 2024-01-01\n[params\nx = 1\n+++\n", 4, "[params: ] missing at the end of the table name"},
		{"toml table twice", "+++\ntitle = 'a'\ndate = 2024-01-01\n[params]\nx = 1\n[params]\ny = 2\n+++\n", 6, "[params]: table defined twice (first on line 4)"},
		// JSON
		{"json trailing comma", "{\n\"title\": \"T\",\n\"date\": \"2024-01-01\",\n}\n", 3, "date: a comma after the last member (JSON allows none)"},
		{"json comma missing", "{\n\"title\": \"T\"\n\"date\": \"2024-01-01\"\n}\n", 2, "title: a comma is missing after the value"},
		{"json single quotes", "{\n\"title\": 'T',\n\"date\": \"2024-01-01\"\n}\n", 2, `title: JSON quotes with " only`},
		{"json unquoted key", "{\ntitle: \"T\",\n\"date\": \"2024-01-01\"\n}\n", 2, `title: a JSON key must be quoted ("…")`},
		{"json quote left open", "{\n\"title\": \"T,\n\"date\": \"2024-01-01\"\n}\nBody.\n", 2, `title: unclosed quote (")`},
		{"json block left open", "{\n\"title\": \"T\",\n\"date\": \"2024-01-01\"\nBody.\n", 4, "} missing: the front matter does not end before this line"},
		{"json capital True", "{\n\"title\": \"T\",\n\"date\": \"2024-01-01\",\n\"draft\": True\n}\n", 4, `draft: not a JSON value (quote text as "…"; true, false and null are lower case)`},
		{"json list comma missing", "{\n\"title\": \"T\",\n\"date\": \"2024-01-01\",\n\"tags\": [\"a\" \"b\"]\n}\n", 4, "tags: a comma is missing between the list's items"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parsePost("blog/x.md", []byte(tc.src), "x", time.UTC)
			var ce *contentError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a problem", err)
			}
			if want := "front matter: " + tc.msg; ce.line != tc.line || ce.msg != want {
				t.Errorf("got  %d: %s\nwant %d: %s", ce.line, ce.msg, tc.line, want)
			}
		})
	}
}
