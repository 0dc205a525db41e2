package render

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"folio/pipeline"

	yaml "go.yaml.in/yaml/v4"
)

// twinYAMLSeeds are the characters YAML refuses or reads otherwise than
// JSON does (issue 15, finding 15): DEL, C1 controls, NEL (a line break
// to YAML), U+FFFE and U+FFFF, line and paragraph separators, a BOM.
var twinYAMLSeeds = []string{
	"a\u0085b", "a\u0080b", "a\u009fb", "a\x7fb", "a\ufffeb", "a\uffffb", "a\u2028b\u2029c",
	"a\ufeffb", "tab\there\nnew \"quoted\" \\ back", "<!-- & -->", "plain", "", "𝄞 emoji 😀",
}

// TestTwinFrontMatterIsYAML: the Markdown twin's front matter is YAML that
// a strict reader (go.yaml.in/yaml, PyYAML's rule) reads back as the title,
// description and tags the post has, whatever characters they hold.
// Before, a C1 control, U+FFFE or U+FFFF made it invalid YAML and NEL
// turned into a space.
func TestTwinFrontMatterIsYAML(t *testing.T) {
	for _, s := range twinYAMLSeeds {
		checkTwinYAML(t, s, "d"+s, s+"t")
	}
}

// FuzzTwinFrontMatter: the same for any text.
//
//	go test ./render -run '^$' -fuzz '^FuzzTwinFrontMatter$' -fuzztime 1m
func FuzzTwinFrontMatter(f *testing.F) {
	for _, s := range twinYAMLSeeds {
		f.Add(s, s, s)
	}
	f.Fuzz(func(t *testing.T, title, description, tag string) {
		if !utf8.ValidString(title) || !utf8.ValidString(description) || !utf8.ValidString(tag) {
			t.Skip() // the pipeline refuses invalid UTF-8
		}
		checkTwinYAML(t, title, description, tag)
	})
}

func checkTwinYAML(t *testing.T, title, description, tag string) {
	t.Helper()
	p := &pipeline.Post{Slug: "x", Title: title, Description: description, Tags: []string{tag}, Date: time.Date(2024, 1, 2, 3, 4, 5, 0, time.UTC)}
	doc := string(MarkdownDocument(p, "https://example.org/blog/x/", "Body.\n"))
	fm, _, ok := strings.Cut(strings.TrimPrefix(doc, "---\n"), "\n---\n")
	if !ok {
		t.Fatalf("no front matter in %q", doc)
	}
	for i, r := range fm {
		if !yamlPrintable(r) {
			t.Fatalf("front matter holds %U at %d, which YAML does not allow:\n%q", r, i, fm)
		}
	}
	var got struct {
		Title, Description string
		Tags               []string
	}
	if err := yaml.Unmarshal([]byte(fm), &got); err != nil {
		t.Fatalf("front matter is not YAML: %v\n%q", err, fm)
	}
	if got.Title != title || got.Description != description || len(got.Tags) != 1 || got.Tags[0] != tag {
		t.Fatalf("front matter reads %q, %q, %q; want %q, %q, %q\n%q", got.Title, got.Description, got.Tags, title, description, tag, fm)
	}
}

// yamlPrintable is YAML 1.2's c-printable, less NEL, LS, PS and the BOM,
// which YAML 1.1 readers take for line breaks or a stream's start.
func yamlPrintable(r rune) bool {
	switch {
	case r == 0x85, r == 0x2028, r == 0x2029, r == 0xfeff:
		return false
	case r == '\t', r == '\n', r == '\r', r >= 0x20 && r <= 0x7e, r >= 0xa0 && r <= 0xd7ff,
		r >= 0xe000 && r <= 0xfffd, r >= 0x10000 && r <= 0x10ffff:
		return true
	}
	return false
}

// TestJSONStringPlainASCII: the quick path for printable ASCII quotes as
// the encoder does, for every ASCII character alone, in words and beside
// a quote, a backslash or a character outside ASCII.
func TestJSONStringPlainASCII(t *testing.T) {
	inputs := append([]string{}, twinYAMLSeeds...)
	for c := range 0x80 {
		r := string(rune(c))
		inputs = append(inputs, r, "a"+r+"b", r+`"`, r+`\`, r+"é")
	}
	inputs = append(inputs, "https://blog.example.org/blog/post-000001/", "Go & <Rust>: 'why' {x}", "a/b?c=d#e", "~`!@#$%^&*()_+-=[]|;:,./")
	for _, s := range inputs {
		if got, want := jsonString(s), quoteEscaped(s); got != want {
			t.Errorf("jsonString(%q) = %s, want %s", s, got, want)
		}
	}
}
