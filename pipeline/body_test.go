package pipeline

import (
	"fmt"
	"strings"
	"testing"
)

// dump writes a node tree on one line: text quoted, shortcodes as
// name(params)[inner], the divider as MORE, each with its line.
func dump(nodes []Node) string {
	var b strings.Builder
	for i, n := range nodes {
		if i > 0 {
			b.WriteByte(' ')
		}
		switch n.Kind {
		case TextNode:
			fmt.Fprintf(&b, "%d:%q", n.Line, n.Text)
		case MoreNode:
			fmt.Fprintf(&b, "%d:MORE", n.Line)
		case ShortcodeNode:
			fmt.Fprintf(&b, "%d:%s%v%v", n.Line, n.Name, n.Positional, n.Named)
			if n.Markup {
				b.WriteString("%")
			}
			if n.HasInner {
				b.WriteString("[" + dump(n.Inner) + "]")
			}
		}
	}
	return b.String()
}

func TestParseBody(t *testing.T) {
	const fm = "---\ntitle: T\ndate: 2024-01-01\n---\n" // the body starts on line 5
	tests := []struct{ name, body, want string }{
		{"text", "Hello.\n", `5:"Hello.\n"`},
		{"empty", "", ``},
		{"more divider", "Intro.\n<!--more-->\nRest.\n", `5:"Intro.\n" 6:MORE 7:"Rest.\n"`},
		{"figure", "A\n{{< figure src=\"a.png\" alt=\"A map\" >}}\nB", `5:"A\n" 6:figure[]map[alt:A map src:a.png] 6:"\nB"`},
		{"positional", `{{< ref "other.md" >}}`, `5:ref[other.md]map[]`},
		{"youtube", `{{< youtube dQw4w9WgXcQ >}}`, `5:youtube[dQw4w9WgXcQ]map[]`},
		{"highlight with inner", "{{< highlight go \"linenos=table\" >}}\nfunc f() {}\n{{< /highlight >}}\n",
			`5:highlight[go linenos=table]map[][5:"\nfunc f() {}\n"] 7:"\n"`},
		{"markup inner", "{{% note %}}*hi*{{% /note %}}", `5:note[]map[]%[5:"*hi*"]`},
		{"self-closing", "{{< note />}} after", `5:note[]map[] 5:" after"`},
		{"nested", "{{< outer >}}a {{< inner x >}}b{{< /inner >}} c{{< /outer >}}",
			`5:outer[]map[][5:"a " 5:inner[x]map[][5:"b"] 5:" c"]`},
		// Go template braces and a commented-out shortcode are text, in
		// one node, byte for byte.
		{"template text", "```\n{{ .Title }} {{ range . }}x{{ end }}\n```\n{{</* figure src=\"a\" */>}}\n",
			`5:"` + "```" + `\n{{ .Title }} {{ range . }}x{{ end }}\n` + "```" + `\n{{< figure src=\"a\" >}}\n"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePost("blog/x.md", []byte(fm+tt.body), "x", paris(t))
			if err != nil {
				t.Fatal(err)
			}
			if got := dump(p.Body); got != tt.want {
				t.Errorf("body:\ngot  %s\nwant %s", got, tt.want)
			}
			if p.BodyLine != 5 {
				t.Errorf("BodyLine = %d, want 5", p.BodyLine)
			}
		})
	}
}

func TestBodyLineAfterCRLFAndBOM(t *testing.T) {
	src := "\ufeff+++\r\ntitle = 'T'\r\ndate = 2024-01-01\r\n+++\r\n\r\nFirst.\r\n{{< figure src=\"a\" >}}\r\n"
	p, err := parsePost("blog/x.md", []byte(src), "x", paris(t))
	if err != nil {
		t.Fatal(err)
	}
	if want := `5:"\r\nFirst.\r\n" 7:figure[]map[src:a] 7:"\r\n"`; dump(p.Body) != want {
		t.Errorf("body = %s\nwant   %s", dump(p.Body), want)
	}
}
