package corpus

import (
	"encoding/json"
	"fmt"
	"strings"
)

var words = strings.Fields(`go server snapshot markdown feed cursor page render parse watch file
	atomic swap reload content author editor browser agent search tag
	category title description pipeline latency memory cache header
	negotiate accept html json rss openapi schema client index bundle`)

var tagWords = []string{"go", "http", "markdown", "hugo", "performance", "rss", "api", "web",
	"agents", "search", "caching", "testing", "linux", "écriture", "日本語"}

// categories: "" stands for an empty categories list.
var categories = []string{"engineering", "notes", "essays", ""}

func (g *gen) word() string { return words[g.r.IntN(len(words))] }

// sentence returns n words (6-18 when n is 0), capitalised, with a full stop.
func (g *gen) sentence(n int) string {
	if n == 0 {
		n = 6 + g.r.IntN(13)
	}
	var b strings.Builder
	for j := range n {
		w := g.word()
		if j == 0 {
			w = strings.ToUpper(w[:1]) + w[1:]
		} else {
			b.WriteByte(' ')
		}
		b.WriteString(w)
	}
	b.WriteByte('.')
	return b.String()
}

// body returns 2-8 sections, each a heading, 1-4 paragraphs and sometimes a
// code block, a table, a list or a line with links.
func (g *gen) body() string {
	var parts []string
	for s := range 2 + g.r.IntN(7) {
		h := g.sentence(4)
		parts = append(parts, fmt.Sprintf("## %s %d\n", h[:len(h)-1], s))
		for range 1 + g.r.IntN(4) {
			sents := make([]string, 2+g.r.IntN(5))
			for j := range sents {
				sents[j] = g.sentence(0)
			}
			parts = append(parts, strings.Join(sents, " ")+"\n")
		}
		switch k := g.r.Float64(); {
		case k < 0.25:
			parts = append(parts, "```go\nfunc main() {\n\tfmt.Println(\""+g.word()+"\")\n}\n```\n")
		case k < 0.45:
			parts = append(parts, "| a | b |\n|---|---|\n| "+g.word()+" | "+g.word()+" |\n")
		case k < 0.65:
			items := make([]string, 2+g.r.IntN(4))
			for j := range items {
				items[j] = "- " + g.sentence(5)
			}
			parts = append(parts, strings.Join(items, "\n")+"\n")
		case k < 0.75:
			parts = append(parts, fmt.Sprintf("See [the docs](https://example.org/%s) and *%s*.\n", g.word(), g.word()))
		}
	}
	return strings.Join(parts, "\n")
}

type field struct {
	key   string
	value any
}

// frontMatter keeps its keys in order, so the bytes are deterministic.
type frontMatter []field

func (fm frontMatter) yaml() string { return fm.lines("---", ": ") }
func (fm frontMatter) toml() string { return fm.lines("+++", " = ") }

// lines writes one key per line with JSON values, which are valid YAML
// flow values and TOML values for the strings, lists and booleans used.
func (fm frontMatter) lines(delim, sep string) string {
	var b strings.Builder
	b.WriteString(delim + "\n")
	for _, f := range fm {
		b.WriteString(f.key + sep + quote(f.value) + "\n")
	}
	b.WriteString(delim + "\n")
	return b.String()
}

func (fm frontMatter) json() string {
	var b strings.Builder
	b.WriteString("{\n")
	for j, f := range fm {
		b.WriteString("  " + quote(f.key) + ": " + quote(f.value))
		if j < len(fm)-1 {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
	}
	b.WriteString("}\n")
	return b.String()
}

// quote encodes v as JSON without HTML escaping, like Python's json.dumps
// with ensure_ascii=False.
func quote(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		panic(err) // only strings, string lists and booleans reach here
	}
	return strings.TrimSuffix(b.String(), "\n")
}
