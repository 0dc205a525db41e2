package render

import (
	"strings"
	"testing"

	"folio/pipeline"
)

// TestInlineShortcodeProblems: what Hugo stops at in an inline shortcode
// (a call to a name the page has not defined, a template that does not parse or fails, one past the page's bounds) is
// an error at the call's line, and the call shows nothing: neither its
// template text nor anything of a page before. TestOracle/inline holds
// the rest to Hugo; a call nested in one is refused by the
// content's parser, as by Hugo's.
func TestInlineShortcodeProblems(t *testing.T) {
	on := Options{BaseURL: testBase, Section: "blog", InlineShortcodes: true}
	cases := []struct {
		name, body, issue string
	}{
		{"undefined", "A {{< y.inline />}} B\n", `shortcode "y.inline": no earlier definition of it in this page`},
		{"parse", "A {{< y.inline >}}{{ if }}{{< /y.inline >}} B\n", `shortcode "y.inline": template: y.inline:1: missing value for if`},
		{"exec", "A {{< y.inline >}}{{ .Get 0 | add 1 }}{{< /y.inline >}} B\n", `shortcode "y.inline":`},
		{"unknown function", "A {{< y.inline >}}{{ nosuch 1 }}{{< /y.inline >}} B\n", `function "nosuch" not defined`},
		{"endless", "A {{< y.inline >}}{{ range seq 100000000 }}{{ . }}{{ end }}{{< /y.inline >}} B\n", `shortcode "y.inline":`},
	}
	fewerSteps(t, 10000)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := renderBody(t, c.body, on)
			if got := string(r.HTML); got != "<p>A  B</p>\n" {
				t.Errorf("HTML = %q, want the call to show nothing", got)
			}
			issues := issueText(r.Issues)
			if !strings.Contains(issues, c.issue) {
				t.Errorf("issues = %q, want %q", issues, c.issue)
			}
			if len(r.Issues) == 0 || r.Issues[0].Line != 1+4 || r.Issues[0].Severity != pipeline.Error {
				t.Errorf("issues = %+v, want an error at line 5", r.Issues)
			}
		})
	}
}
