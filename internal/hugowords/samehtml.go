package hugowords

import (
	"fmt"
	"html"
	"net/url"
	"regexp"
	"strings"
)

// sameHTML compares Hugo's HTML of a page with folio's, the differences
// folio documents made away on both sides: URLs resolved against the
// page's (folio writes them absolute), a table's white space between
// tags and its alignment attribute (folio aligns without inline styles),
// the style of a goat diagram's letters and a task box's aria-label
// (render's README, "Shortcodes, templates and Markdown"), white space
// at the end. diff is the first line that differs, for a look.
func sameHTML(hugo, folio, pageURL string) (same bool, diff string) {
	base, err := url.Parse(pageURL)
	if err != nil {
		return false, err.Error()
	}
	h, f := normalizeHTML(hugo, base), normalizeHTML(folio, base)
	if h == f {
		return true, ""
	}
	hl, fl := strings.Split(h, "\n"), strings.Split(f, "\n")
	for i := range max(len(hl), len(fl)) {
		a, b := line(hl, i), line(fl, i)
		if a != b {
			return false, fmt.Sprintf("line %d: hugo %q, folio %q", i+1, clip(a), clip(b))
		}
	}
	return false, ""
}

var (
	urlAttr     = regexp.MustCompile(`(\s(?:href|src))="([^"]*)"`)
	srcsetAttr  = regexp.MustCompile(`(\ssrcset)="([^"]*)"`)
	tableBlock  = regexp.MustCompile(`(?s)<table.*?</table>`)
	betweenTags = regexp.MustCompile(`>\s+<`)
	styleAlign  = regexp.MustCompile(` style="text-align: (\w+)"`)
	goatStyle   = regexp.MustCompile(`(<text [^>]*) style='font-size:1em'`)
	taskLabel   = regexp.MustCompile(` aria-label="(?:done|to do)"`)
)

func normalizeHTML(s string, base *url.URL) string {
	s = urlAttr.ReplaceAllStringFunc(s, func(m string) string {
		sub := urlAttr.FindStringSubmatch(m)
		return sub[1] + `="` + html.EscapeString(resolve(base, html.UnescapeString(sub[2]))) + `"`
	})
	s = srcsetAttr.ReplaceAllStringFunc(s, func(m string) string {
		sub := srcsetAttr.FindStringSubmatch(m)
		var parts []string
		for _, c := range strings.Split(html.UnescapeString(sub[2]), ",") {
			fields := strings.Fields(c)
			if len(fields) > 0 {
				fields[0] = resolve(base, fields[0])
			}
			parts = append(parts, strings.Join(fields, " "))
		}
		return sub[1] + `="` + html.EscapeString(strings.Join(parts, ", ")) + `"`
	})
	s = goatStyle.ReplaceAllString(s, "$1")
	s = taskLabel.ReplaceAllString(s, "")
	s = tableBlock.ReplaceAllStringFunc(s, func(t string) string {
		return betweenTags.ReplaceAllString(styleAlign.ReplaceAllString(t, ` align="$1"`), "><")
	})
	return strings.TrimRight(s, " \t\r\n")
}

// resolve is a URL as a browser resolves it on the page.
func resolve(base *url.URL, v string) string {
	if v == "" || strings.HasPrefix(v, "#") {
		return v
	}
	u, err := url.Parse(v)
	if err != nil {
		return v
	}
	return base.ResolveReference(u).String()
}

func line(lines []string, i int) string {
	if i < len(lines) {
		return lines[i]
	}
	return ""
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}
