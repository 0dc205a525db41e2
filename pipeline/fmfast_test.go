package pipeline

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gohugoio/hugo/parser/metadecoders"
)

// fastYAMLCases are front matters the fast path must decode as Hugo's
// decoder does (fast: it takes them) or leave to it (fast: false).
var fastYAMLCases = []struct {
	name string
	data string
	fast bool
}{
	{"corpus", "title: \"Negotiate page — ünïcødé “quotes” & <angle>\"\ndescription: \"Bundle go feed.\"\ndate: \"2017-08-04T14:16:00Z\"\ntags: [\"testing\",\"http\",\"écriture\",\"日本語\"]\ncategories: [\"essays\"]\n", true},
	{"draft", "title: \"T\"\ndraft: true\ncategories: []\n", true},
	{"empty", "", true},
	{"blank lines", "\n\n", true},
	{"only comments", "# a\n  # b\n", true},
	{"plain title", "title: Hello, world\n", true},
	{"plain unicode", "title: Café au lait — 日本語\n", true},
	{"plain with colon", "url: http://example.com/a:b\n", true},
	{"plain with hash", "title: C# in depth\n", true},
	{"comment after plain", "title: Hello # a comment\n", true},
	{"comment after quoted", "title: \"Hello\"   # a comment\n", true},
	{"hash glued to quoted", "title: \"Hello\"# a comment\n", false},
	{"trailing spaces", "title: Hello   \ndraft: true  \n", true},
	{"no final newline", "title: Hello", true},
	{"YAML 1.1 booleans are strings", "a: yes\nb: no\nc: on\nd: off\ne: y\nf: n\ng: Yes\nh: NO\ni: On\nj: OFF\n", true},
	{"YAML 1.2 booleans", "a: true\nb: True\nc: TRUE\nd: false\ne: False\nf: FALSE\n", true},
	{"mixed-case booleans are strings", "a: tRUE\nb: fAlse\n", true},
	{"nulls", "a: ~\nb: null\nc: Null\nd: NULL\ne:\nf: nULL\n", true},
	{"integers", "a: 0\nb: 10\nc: +10\nd: -10\ne: 1_000\nf: 99999999999999999999\ng: -99999999999999999999\nh: 18446744073709551615\n", true},
	{"octal and hex", "a: 0755\nb: 0o17\nc: 012\nd: 09\ne: 0x1F\nf: 0X1F\ng: 0b101\nh: -0x10\ni: 0x\nj: 0o\nk: 00\n", true},
	{"floats", "a: 1.5\nb: .5\nc: 1.\nd: -1.5\ne: 1.5e3\nf: 1e3\ng: 1.2.3\nh: 1_0.5\ni: 6.02e+23\nj: 0.0\nk: -0.0\n", true},
	{"infinities and NaN", "a: .inf\n", false},
	{"nan", "a: .NaN\n", false},
	{"inf words are strings", "a: inf\nb: nan\nc: Infinity\nd: +.inf\n", true},
	{"underscores", "a: _1\nb: 1_\nc: 1__2\n", true},
	{"timestamps are strings", "a: 2020-01-02\nb: 2020-01-02T03:04:05Z\nc: 2020-01-02 03:04:05\nd: 2020-01-02T03:04:05+01:00\ne: 2020-01-02T03:04:05.123456789Z\nf: 2020-1-2\ng: 2001-12-14 21:59:43.10 -5\nh: 12:30\ni: 1:2:3\n", true},
	{"quoted dates", "date: \"2020-01-02\"\nlastmod: '2020-01-02T03:04:05Z'\n", true},
	{"quoted escapes", `a: "q\"q"` + "\n" + `b: "back\\slash"` + "\n" + `c: "sl\/ash"` + "\n" + `d: "new\nline"` + "\n" + `e: "t\tab"` + "\n", true},
	{"unicode escape", `a: "\u00e9"` + "\n", false},
	{"hex escape", `a: "\x41"` + "\n", false},
	{"other escapes", `a: "\e\0\a"` + "\n", false},
	{"single quotes", "a: 'it''s'\nb: ''\nc: 'a \\n b'\nd: '\"'\n", true},
	{"empty double quotes", "a: \"\"\n", true},
	{"quoted numbers are strings", "a: \"10\"\nb: '1.5'\nc: \"true\"\nd: 'null'\n", true},
	{"flow lists", "a: [a, b, c]\nb: [ \"x\" , 'y' ]\nc: []\nd: [1, 2.5, true, null, ~, yes]\ne: [a b, c d]\n", true},
	{"flow list with comment", "a: [a, b] # c\n", true},
	{"flow list trailing comma", "a: [a, b,]\n", false},
	{"flow list empty item", "a: [a, , b]\n", false},
	{"nested flow list", "a: [[a], b]\n", false},
	{"flow map", "a: {b: c}\n", false},
	{"flow list with mapping", "a: [b: c]\n", false},
	{"flow list unclosed", "a: [a, b\n", false},
	{"flow list over lines", "a: [a,\n  b]\n", false},
	{"block list", "tags:\n  - a\n  - \"b c\"\n  - 'd'\n  - 10\n", true},
	{"block list at the margin", "tags:\n- a\n- b\ntitle: T\n", true},
	{"block list then key", "tags:\n  - a\n\n  # c\n  - b\ntitle: T\n", true},
	{"block list comment after key", "tags: # the tags\n  - a\n", true},
	{"block list ragged", "tags:\n  - a\n   - b\n", false},
	{"block list nested", "tags:\n  - - a\n", false},
	{"block list of maps", "tags:\n  - a: b\n", false},
	{"block list empty item", "tags:\n  -\n  - b\n", false},
	{"block list item continued", "tags:\n  - a\n    b\n", false},
	{"nested mapping", "params:\n  author: A\n", false},
	{"multi-line plain", "title: a\n  b\n", false},
	{"multi-line quoted", "title: \"a\n  b\"\n", false},
	{"literal block", "summary: |\n  a\n  b\n", false},
	{"folded block", "summary: >\n  a\n", false},
	{"anchor and alias", "a: &x 1\nb: *x\n", false},
	{"tag", "a: !!str 1\n", false},
	{"merge key", "<<: {a: 1}\n", false},
	{"duplicate keys", "a: 1\na: 2\n", false},
	{"duplicate keys by case", "title: a\nTitle: b\n", true},
	{"tab indent", "a:\n\t- b\n", false},
	{"tab after value", "a: b\t\n", false},
	{"CRLF", "a: b\r\nc: d\r\n", false},
	{"BOM", "\ufeffa: b\n", false},
	{"NEL", "a: b\u0085c\n", false},
	{"line separator", "a: b\u2028c\n", false},
	{"indented document", "  a: b\n", false},
	{"key with space before colon", "a : b\n", false},
	{"key without space after colon", "a:b\n", false},
	{"quoted key", "\"a\": b\n", false},
	{"reserved keys", "true: a\n", false},
	{"null key", "null: a\n", false},
	{"numeric-looking keys", "a1: x\n_b: y\nc-d: z\n", true},
	{"YAML 1.1 boolean keys are strings", "yes: 1\non: 2\nno: 3\ny: 4\nOff: 5\n", true},
	{"null then comment lines", "a:\n  # c\n# d\nb: 1\n", true},
	{"comment after null", "a: null # c\nb: ~ # d\n", true},
	{"single-quoted then comment", "a: 'it''s' # c\n", true},
	{"quoted then text in a flow list", "a: [\"b\" c]\n", false},
	{"dash item in a flow list", "a: [ - b ]\n", false},
	{"unicode key", "título: x\n", false},
	{"value with mapping", "a: b: c\n", false},
	{"value ending in colon", "a: b:\n", false},
	{"value of indicators", "a: - b\n", false},
	{"question mark", "a: ?b\n", false},
	{"percent", "a: %b\n", false},
	{"at", "a: @b\n", false},
	{"backtick", "a: `b`\n", false},
	{"negative number", "a: -5\nb: -1.5\n", true},
	{"negative fraction", "a: -.5\n", false},
	{"dash word", "a: -b\n", false},
	{"document marker", "---\na: b\n", false},
	{"document end", "a: b\n...\n", false},
	{"directive", "%YAML 1.2\na: b\n", false},
	{"text after quote", "a: \"b\" c\n", false},
	{"unclosed quote", "a: \"b\n", false},
	{"brackets in plain", "a: b [c] {d}\n", true},
	{"comma and brackets in block plain", "a: x, y]\n", true},
	{"many keys", strings.Repeat("k: v\n", 1), true},
}

// decodeYAML is Hugo's decoder, as decodeFrontMatter calls it.
func decodeYAML(data string) (map[string]any, error) {
	return metadecoders.Default.UnmarshalToMap([]byte(data), metadecoders.YAML)
}

// sameAsDecoder checks fastYAML against the decoder on data and reports
// whether the fast path took it.
func sameAsDecoder(t *testing.T, data string) bool {
	t.Helper()
	fast, ok := fastYAML(data)
	if !ok {
		if fast != nil {
			t.Fatalf("%q: not taken, yet a map", data)
		}
		return false
	}
	want, err := decodeYAML(data)
	if err != nil {
		t.Fatalf("%q: the fast path took it, the decoder says %v", data, err)
	}
	if !reflect.DeepEqual(fast, want) {
		t.Fatalf("%q:\nfast    %#v\ndecoder %#v", data, fast, want)
	}
	return true
}

func TestFastYAML(t *testing.T) {
	for _, c := range fastYAMLCases {
		t.Run(c.name, func(t *testing.T) {
			if got := sameAsDecoder(t, c.data); got != c.fast {
				t.Errorf("taken by the fast path: %v, want %v", got, c.fast)
			}
		})
	}
}

// TestFastYAMLKeyLimit: more keys than maxFastKeys go to the decoder.
func TestFastYAMLKeyLimit(t *testing.T) {
	var b strings.Builder
	for i := range maxFastKeys + 1 {
		b.WriteString("k" + strings.Repeat("x", i) + ": v\n")
	}
	if _, ok := fastYAML(b.String()); ok {
		t.Fatal("taken")
	}
}

// FuzzFastYAML: on any input the fast path takes, its map is the
// decoder's, and the decoder accepts the input. The input is tried as a
// front matter, and as a value in each place the subset has for one (a
// key's, a flow list's item, a block list's item), where a random
// front matter would rarely be in the subset.
//
//	go test ./pipeline -run '^$' -fuzz '^FuzzFastYAML$' -fuzztime 1m
func FuzzFastYAML(f *testing.F) {
	for _, c := range fastYAMLCases {
		f.Add(c.data)
	}
	for _, v := range []string{"x", "'a''b'", `"a\"b"`, "1_0", "0x1F", "-1.5", "2020-01-02", "~", "a # c", "True"} {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, data string) {
		sameAsDecoder(t, data)
		if strings.Contains(data, "\n") {
			return
		}
		for _, doc := range []string{
			"a: " + data + "\n",
			"a: " + data + "\nb: c\n",
			"a: [" + data + "]\n",
			"a: [x, " + data + ", y]\n",
			"a:\n  - " + data + "\n",
			"a:\n- " + data + "\n- x\nb: c\n",
		} {
			sameAsDecoder(t, doc)
		}
	})
}

func BenchmarkFastYAML(b *testing.B) {
	data := fastYAMLCases[0].data
	b.Run("fast", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			fastYAML(data)
		}
	})
	b.Run("decoder", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			decodeYAML(data)
		}
	})
}
