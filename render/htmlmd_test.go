package render

import (
	"bytes"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
	"golang.org/x/net/html"
)

// TestHTMLTablesToMarkdown: a table a template writes (a shortcode's
// Markdown, an Org post's twin) becomes a GFM table that goldmark reads
// back as a table with the same cells: a table or list inside a cell is
// flattened to its text (a GFM cell is one line), a line break in a cell
// is a space, and a table whose first row is data gets GFM's empty
// header row. (A nested table became "\| x \| \| --- \| \| in \|", a
// list "- one - two", a <br> a stray backslash.)
func TestHTMLTablesToMarkdown(t *testing.T) {
	for _, c := range []struct {
		name, html, want string
		cells            [][]string // the table goldmark reads back, header first
	}{
		{"header", `<table><tr><th>a</th><th>b</th></tr><tr><td>1</td><td>2</td></tr></table>`,
			"| a | b |\n| --- | --- |\n| 1 | 2 |", [][]string{{"a", "b"}, {"1", "2"}}},
		{"thead", `<table><thead><tr><td>a</td></tr></thead><tbody><tr><td>1</td></tr></tbody></table>`,
			"| a |\n| --- |\n| 1 |", [][]string{{"a"}, {"1"}}},
		{"nested table", `<table><tr><th>a</th><th>b</th></tr><tr><td><table><tr><th>x</th><th>y</th></tr><tr><td>in</td><td>2</td></tr></table></td><td>z</td></tr></table>`,
			"| a | b |\n| --- | --- |\n| x, y; in, 2 | z |", [][]string{{"a", "b"}, {"x, y; in, 2", "z"}}},
		{"nested twice", `<table><tr><th>a</th></tr><tr><td>before <table><tr><td><table><tr><td>deep</td><td>er</td></tr></table></td><td>q</td></tr></table> after</td></tr></table>`,
			"| a |\n| --- |\n| before deep, er, q after |", [][]string{{"a"}, {"before deep, er, q after"}}},
		{"no header row", `<table><tr><td>a</td><td>b</td></tr><tr><td>c</td><td>d</td></tr></table>`,
			"|  |  |\n| --- | --- |\n| a | b |\n| c | d |", [][]string{{"", ""}, {"a", "b"}, {"c", "d"}}},
		{"empty header cells", `<table><thead><tr><th></th><th></th></tr></thead><tbody><tr><td>c</td><td>d</td></tr></tbody></table>`,
			"|  |  |\n| --- | --- |\n| c | d |", [][]string{{"", ""}, {"c", "d"}}},
		{"list and break in a cell", `<table><tr><th>h</th><th>k</th></tr><tr><td><ul><li>one</li><li><b>two</b></li></ul></td><td>a<br>b</td></tr></table>`,
			"| h | k |\n| --- | --- |\n| one; **two** | a b |", [][]string{{"h", "k"}, {"one; two", "a b"}}},
		{"pipes and ragged rows", `<table><tr><th>a|b</th></tr><tr><td>1</td><td>2</td></tr></table>`,
			"| a\\|b |  |\n| --- | --- |\n| 1 | 2 |", [][]string{{"a|b", ""}, {"1", "2"}}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := htmlToMarkdown(c.html)
			if got != c.want {
				t.Errorf("htmlToMarkdown:\n%s\nwant\n%s", got, c.want)
			}
			if cells := gfmTable(t, got); !equalCells(cells, c.cells) {
				t.Errorf("goldmark reads %q back as %q, want %q", got, cells, c.cells)
			}
		})
	}
}

// gfmTable renders md with goldmark's GFM and returns the text of each
// row's cells of the one table it must hold.
func gfmTable(t *testing.T, md string) [][]string {
	t.Helper()
	var b bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &b); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(&b)
	if err != nil {
		t.Fatal(err)
	}
	var rows [][]string
	tables := 0
	var walk func(*html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "table" {
			tables++
		}
		if n.Type == html.ElementNode && n.Data == "tr" {
			var row []string
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				if c.Type == html.ElementNode && (c.Data == "td" || c.Data == "th") {
					row = append(row, strings.TrimSpace(textOf(c)))
				}
			}
			rows = append(rows, row)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if tables != 1 {
		t.Errorf("goldmark reads %d tables in\n%s\n%s", tables, md, b.String())
	}
	return rows
}

func equalCells(a, b [][]string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if strings.Join(a[i], "\x00") != strings.Join(b[i], "\x00") || len(a[i]) != len(b[i]) {
			return false
		}
	}
	return true
}
