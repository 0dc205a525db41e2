package pipeline

import (
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"folio/internal/corpus"
)

// repeat joins n lines made by line(i).
func repeat(n int, line func(i int) string) string {
	var b strings.Builder
	for i := range n {
		b.WriteString(line(i) + "\n")
	}
	return b.String()
}

func yamlFM(fm string) string { return "---\ntitle: T\ndate: 2024-06-01\n" + fm + "---\nbody\n" }
func tomlFM(fm string) string { return "+++\ntitle = 'T'\ndate = 2024-06-01\n" + fm + "+++\nbody\n" }

// TestFrontMatterBounds: front matter that Hugo's decoders would take
// seconds or minutes over (issue 15, finding 2: 100,000 keys in one
// mapping took 20 s) is a problem on the line that passes a limit,
// found before decoding; shapes that decode in linear time are accepted
// however large. Each refused case was accepted, slowly, before the
// limits.
func TestFrontMatterBounds(t *testing.T) {
	key := func(i int) string { return fmt.Sprintf("k%d: v", i) }
	tkey := func(i int) string { return fmt.Sprintf("k%d = 1", i) }
	for _, tc := range []struct {
		name, src string
		line      int // 0: accepted
		msg       string
	}{
		{"yaml keys at the limit", yamlFM(repeat(maxKeys-2, key)), 0, ""},
		{"yaml top-level keys past the limit", yamlFM(repeat(maxKeys-1, key)), maxKeys + 2, "front matter: too many keys: more than 2000 at one level"},
		{"yaml nested keys past the limit", yamlFM("params:\n" + repeat(maxKeys+1, func(i int) string { return "  " + key(i) })), maxKeys + 5, "too many keys"},
		{"yaml keys past the limit in a list entry", yamlFM("l:\n  - a: 1\n" + repeat(maxKeys, func(i int) string { return "    " + key(i) })), maxKeys + 5, "too many keys"},
		{"yaml keys across mappings", yamlFM("a:\n" + repeat(1500, func(i int) string { return "  " + key(i) }) +
			"b:\n" + repeat(1500, func(i int) string { return "  " + key(i) })), 0, ""},
		{"yaml list of small mappings", yamlFM("l:\n" + repeat(3000, func(i int) string { return fmt.Sprintf("  - a: %d\n    b: 2", i) })), 0, ""},
		{"yaml flow mapping (linear)", yamlFM("m: {" + strings.TrimSuffix(repeat(3000, func(i int) string { return fmt.Sprintf("k%d: 1,", i) }), ",\n") + "}\n"), 0, ""},
		{"yaml explicit keys", yamlFM(repeat(maxKeys, func(i int) string { return fmt.Sprintf("? k%d\n: v", i) })), 2 * maxKeys, "too many keys"},
		{"yaml aliases within bounds", yamlFM("base: &b {x: 1, y: 2}\n" + repeat(20, func(i int) string { return fmt.Sprintf("c%d: *b", i) })), 0, ""},
		{"yaml aliases repeating a list", yamlFM("a: &a [" + strings.Repeat("x,", 200) + "x]\n" +
			repeat(100, func(i int) string { return fmt.Sprintf("c%d: *a", i) })), 54, "front matter: aliases (*name) repeat more than 10000 values"},
		{"yaml billion laughs", string(billionLaughs()), 8, "aliases (*name) repeat more than 10000 values"},
		{"front matter too large", yamlFM("x: " + strings.Repeat("y", maxFrontMatter) + "\n"), 2, "front matter: front matter too large: 1048606 bytes (the limit is 1024 KiB)"},
		{"toml keys at the limit", tomlFM(repeat(maxKeys-2, tkey)), 0, ""},
		{"toml top-level keys past the limit", tomlFM(repeat(maxKeys-1, tkey)), maxKeys + 2, "front matter: too many keys: more than 2000 in one table"},
		{"toml table keys past the limit", tomlFM("[params]\n" + repeat(maxKeys+1, tkey)), maxKeys + 5, "too many keys"},
		{"toml dotted keys past the limit", tomlFM(repeat(maxKeys+1, func(i int) string { return "a." + tkey(i) })), maxKeys + 4, "too many keys"},
		{"toml sub-tables past the limit", tomlFM(repeat(maxKeys+1, func(i int) string { return fmt.Sprintf("[a.k%d]", i) })), maxKeys + 4, "too many keys"},
		{"toml inline table past the limit", tomlFM("m = {" + strings.TrimSuffix(repeat(maxKeys+1, func(i int) string { return fmt.Sprintf("k%d = 1,", i) }), ",\n") + "}\n"), 4, "too many keys"},
		{"toml array tables", tomlFM(repeat(3000, func(i int) string { return fmt.Sprintf("[[items]]\na = %d\nb = 2", i) })), 0, ""},
		{"toml array of inline tables", tomlFM("l = [" + strings.Repeat("{a = 1, b = 2}, ", 3000) + "]\n"), 0, ""},
		{"json keys (linear)", `{"title": "T", "date": "2024-06-01"` + strings.Repeat(`, "k": 1`, 3000) + "}\nbody\n", 0, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := parsePost("blog/x.md", []byte(tc.src), "x", time.UTC)
			if tc.line == 0 {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if p.Title != "T" {
					t.Fatalf("title %q", p.Title)
				}
				return
			}
			var ce *contentError
			if !errors.As(err, &ce) {
				t.Fatalf("err = %v, want a problem", err)
			}
			if ce.line != tc.line || !strings.Contains(ce.msg, tc.msg) {
				t.Fatalf("line %d %q, want line %d %q", ce.line, ce.msg, tc.line, tc.msg)
			}
		})
	}
}

// billionLaughs is the YAML alias bomb: nine levels of nine aliases
// would be 9^9 strings.
func billionLaughs() []byte {
	var b strings.Builder
	b.WriteString("---\ntitle: Bomb\ndate: 2024-06-01\na0: &a0 [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n")
	for i := 1; i <= 9; i++ {
		ref := fmt.Sprintf("*a%d", i-1)
		fmt.Fprintf(&b, "a%d: &a%d [%s]\n", i, i, strings.TrimSuffix(strings.Repeat(ref+",", 9), ","))
	}
	b.WriteString("---\nboom\n")
	return []byte(b.String())
}

// TestTOMLWithinBounds: the check that lets TOML front matter skip the
// parse never lets through what the parse refuses: on front matter at and
// past each TOML limit (top-level, table, dotted, sub-table and inline
// keys), whatever it accepts the parse accepts too, and it accepts
// ordinary front matter.
func TestTOMLWithinBounds(t *testing.T) {
	tkey := func(i int) string { return fmt.Sprintf("k%d = 1", i) }
	for _, tc := range []struct {
		name   string
		data   string
		within bool // what tomlWithinBounds must say
	}{
		{"ordinary", "title = \"a = b\"\ndate = 2024-06-01T10:00:00Z\ntags = [\"go\", \"日本語\"]\n[params]\nx = 1\n", true},
		{"keys at the limit", repeat(maxKeys, tkey), true},
		{"keys past the limit", repeat(maxKeys+1, tkey), false},
		{"table keys past the limit", "[params]\n" + repeat(maxKeys, tkey), false},
		{"dotted keys at the limit", repeat(maxKeys, func(i int) string { return "a.b." + tkey(i) }), true},
		{"dotted keys past the limit", repeat(maxKeys+1, func(i int) string { return "a." + tkey(i) }), false},
		{"sub-tables at the limit", repeat(maxKeys, func(i int) string { return fmt.Sprintf("[a.k%d]", i) }), true},
		{"sub-tables past the limit", repeat(maxKeys+1, func(i int) string { return fmt.Sprintf("[a.k%d]", i) }), false},
		{"inline table past the limit", "m = {" + strings.TrimSuffix(repeat(maxKeys+1, func(i int) string { return fmt.Sprintf("k%d = 1,", i) }), ",\n") + "}\n", false},
		{"array tables", repeat(400, func(i int) string { return fmt.Sprintf("[[items]]\na = %d\nb = 2", i) }), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := tomlWithinBounds([]byte(tc.data)); got != tc.within {
				t.Fatalf("tomlWithinBounds = %v, want %v", got, tc.within)
			}
			if line, msg := tomlBounds([]byte(tc.data)); tc.within && line != 0 {
				t.Fatalf("within bounds, but the parse refuses it: line %d %q", line, msg)
			}
		})
	}
	within := 0
	for name, f := range corpus.MapFS(300, 1) {
		fm, ok := strings.CutPrefix(string(f.Data), "+++\n")
		if !ok {
			continue
		}
		fm, _, _ = strings.Cut(fm, "\n+++\n")
		if tomlWithinBounds([]byte(fm)) {
			within++
		}
		if line, msg := tomlBounds([]byte(fm)); line != 0 {
			t.Errorf("%s: the parse refuses it: line %d %q", name, line, msg)
		}
	}
	if within == 0 {
		t.Error("no TOML front matter of the corpus is within bounds")
	}
}

// TestYAMLWithinBounds: the check that lets front matter skip the scan
// never lets through what the scan refuses: on front matter at and past
// each YAML limit, and on the generated corpus's, whatever it accepts
// the scan accepts too, and it accepts ordinary front matter.
func TestYAMLWithinBounds(t *testing.T) {
	key := func(i int) string { return fmt.Sprintf("k%d: v", i) }
	for _, tc := range []struct {
		name   string
		data   string
		within bool // what yamlWithinBounds must say
	}{
		{"ordinary", "title: \"A: b\"\ndate: 2024-06-01T10:00:00Z\ntags: [go, \"日本語\"]\n", true},
		{"keys at the limit", repeat(maxKeys, key), true},
		{"keys past the limit", repeat(maxKeys+1, key), false},
		{"explicit keys past the limit", repeat(maxKeys/2+1, func(i int) string { return fmt.Sprintf("? k%d\n: v", i) }), false},
		{"an alias", "a: &x 1\nb: *x\n", false},
		{"a star in a title", "title: \"**bold**\"\n", false},
		{"many keys across mappings", "a:\n" + repeat(1500, func(i int) string { return "  " + key(i) }), true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := yamlWithinBounds([]byte(tc.data)); got != tc.within {
				t.Fatalf("yamlWithinBounds = %v, want %v", got, tc.within)
			}
			if line, msg := yamlBounds([]byte(tc.data)); tc.within && line != 0 {
				t.Fatalf("within bounds, but the scan refuses it: line %d %q", line, msg)
			}
		})
	}
	within := 0
	for name, f := range corpus.MapFS(300, 1) {
		fm, ok := strings.CutPrefix(string(f.Data), "---\n")
		if !ok {
			continue
		}
		fm, _, _ = strings.Cut(fm, "\n---\n")
		if yamlWithinBounds([]byte(fm)) {
			within++
		}
		if line, msg := yamlBounds([]byte(fm)); line != 0 {
			t.Errorf("%s: the scan refuses it: line %d %q", name, line, msg)
		}
	}
	if within == 0 {
		t.Error("no front matter of the corpus is within bounds without a scan")
	}
}
