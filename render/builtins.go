package render

import (
	"bytes"
	"fmt"
	"html/template"
	"strings"

	"github.com/yuin/goldmark/renderer/html"
)

// Hugo's built-in shortcodes, written in Go. Each writes the bytes Hugo
// 0.165's embedded template writes for the same call (the oracle tests
// hold them to it), and the Markdown the twin shows. The markup around
// the values is laid out by small html/template layouts, so that every
// value is escaped exactly as Hugo's html/template escapes it (attribute,
// URL and text contexts differ).

// A builtin renders one call of a built-in shortcode.
type builtin struct {
	// usesInner tells whether the shortcode takes content between an
	// opening and a closing tag, as Hugo decides from its template.
	usesInner bool
	render    func(st *state, sc *shortcode) expansion
}

// An expansion is a rendered call: the HTML (or, for a {{% %}} call at
// the top level, the Markdown) that stands in the content, and what the
// Markdown twin shows instead.
type expansion struct {
	out string
	md  string
	// url is a ref's target, for a ref that is a link's destination;
	// dropped means that target is not shown.
	url     string
	dropped bool
	// block: md is blocks, to be set apart from the text around it.
	block bool
}

var builtins map[string]builtin

func init() {
	builtins = map[string]builtin{
		"details":   {usesInner: true, render: (*state).details},
		"figure":    {render: (*state).figure},
		"highlight": {usesInner: true, render: (*state).highlightCall},
		"param":     {render: (*state).param},
		"ref":       {render: (*state).refCall},
		"relref":    {render: (*state).refCall},
		"youtube":   {render: (*state).youtube},
		"vimeo":     {render: (*state).vimeo},
		"x":         {render: (*state).xPost},
		"instagram": {render: (*state).instagram},
		"gist":      {render: (*state).gist},
		"tweet":     {render: (*state).tweet},
		"twitter":   {render: (*state).tweet},
		"comment":   {usesInner: true, render: (*state).comment},
		"qr":        {usesInner: true, render: (*state).qrCall},
	}
}

// layouts are the markup of the built-ins; "." is the shortcode's values
// as the Go code decided them.
var layouts = template.Must(template.New("").Parse(`
{{- define "details" }}
<details
	{{- with .Class }} class="{{ . }}"{{ end }}
	{{- with .Name }} name="{{ . }}"{{ end }}
	{{- if .Open }} open{{ end }}
	{{- with .Title }} title="{{ . }}"{{ end }}>
	<summary>{{ .Summary }}</summary>
	{{ .Inner }}</details>
{{ end -}}

{{- define "figure" -}}
<figure{{ with .Class }} class="{{ . }}"{{ end }}>
	{{- if .Link }}<a href="{{ .Link }}"{{ with .Target }} target="{{ . }}"{{ end }}{{ with .Rel }} rel="{{ . }}"{{ end }}>{{ end -}}
	<img src="{{ .Src }}"
	{{- if .HasAlt }}
			alt="{{ .Alt }}"
	{{- end }}
	{{- with .Width }} width="{{ . }}"{{ end }}
	{{- with .Height }} height="{{ . }}"{{ end }}
	{{- with .Loading }} loading="{{ . }}"{{ end }}>
	{{- if .Link }}</a>{{ end }}
	{{- if .Figcaption }}<figcaption>
			{{ with .Title }}<h4>{{ . }}</h4>{{ end }}
	{{- if .CaptionPara }}<p>{{ .Caption }}
		{{- with .AttrLink }}
						<a href="{{ . }}">{{ end }}
		{{- .Attr }}
		{{- if .AttrLink }}</a>{{ end }}</p>{{ end }}
		</figcaption>
	{{- end }}
</figure>
{{ end -}}

{{- define "text" }}{{ . }}{{ end -}}

{{- define "link" }}<a href="{{ .URL }}">{{ .Text }}</a>{{ end -}}

{{- define "qr" -}}
<svg xmlns="http://www.w3.org/2000/svg" width="{{ .Width }}" height="{{ .Width }}" viewBox="0 0 {{ .Box }} {{ .Box }}" role="img"
	{{- with .Alt }} aria-label="{{ . }}"{{ end }}
	{{- with .Class }} class="{{ . }}"{{ end }}
	{{- with .ID }} id="{{ . }}"{{ end }}>
	{{- with .Title }}<title>{{ . }}</title>{{ end -}}
	<path fill="#fff" d="{{ .Light }}"/><path fill="#000" d="{{ .Dark }}"/></svg>
{{- end -}}
`))

// layout executes a layout into a string.
func layout(name string, data any) string {
	var b bytes.Buffer
	if err := layouts.ExecuteTemplate(&b, name, data); err != nil {
		panic(fmt.Sprintf("render: built-in layout %s: %v", name, err)) // a bug in folio
	}
	return b.String()
}

// truth reads a boolean argument as Hugo's built-ins do: true, "true"
// and 1 are true; false, "false" and 0 are false; anything else is def.
func truth(v any, def bool) bool {
	switch v {
	case true, "true", 1:
		return true
	case false, "false", 0:
		return false
	}
	return def
}

// nonEmpty reports whether a template value is truthy as an argument:
// not nil, "", false or a zero number.
func nonEmpty(v any) bool {
	switch v := v.(type) {
	case nil:
		return false
	case string:
		return v != ""
	case bool:
		return v
	case int:
		return v != 0
	case float64:
		return v != 0
	}
	return true
}

// or returns the first non-empty value, as the template function does.
func or(vs ...any) any {
	for _, v := range vs {
		if nonEmpty(v) {
			return v
		}
	}
	return vs[len(vs)-1]
}

// details renders Hugo's details shortcode: a <details> element with a
// summary (Markdown, inline) and the inner content (Markdown, as blocks).
// The twin shows the summary in bold, then the content.
func (st *state) details(sc *shortcode) expansion {
	summary := or(sc.Get("summary"), "Details")
	sumHTML, err := st.renderString(fmt.Sprint(summary), true)
	st.callError(sc, err)
	inner, err := st.renderString(string(sc.Inner), false)
	st.callError(sc, err)
	out := layout("details", struct {
		Class, Name, Title any
		Open               bool
		Summary, Inner     template.HTML
	}{
		Class: or(sc.Get("class"), ""), Name: or(sc.Get("name"), ""), Title: or(sc.Get("title"), ""),
		Open:    truth(sc.Get("open"), false),
		Summary: template.HTML(sumHTML), Inner: template.HTML(inner),
	})
	md := "**" + strings.TrimSpace(st.twinOf(fmt.Sprint(summary), sc.line)) + "**\n\n" + strings.TrimSpace(st.innerTwin(sc))
	return expansion{out: out, md: strings.TrimSpace(md), block: true}
}

// figure renders Hugo's figure shortcode. A src naming a file of the
// page bundle is that file's URL; every URL is absolute, as folio writes
// every URL.
func (st *state) figure(sc *shortcode) expansion {
	src := sc.str("src", -1)
	if src == "" {
		st.issue(sc.line, "figure: missing src")
	}
	img, found := st.figureSrc(src)
	if !found {
		img = st.figureDest(src, true, sc.line)
	}
	link := st.figureDest(sc.str("link", -1), false, sc.line)
	attrLink := st.figureDest(sc.str("attrlink", -1), false, sc.line)
	caption, attr := sc.Get("caption"), sc.Get("attr")
	capHTML, attrHTML := "", ""
	if nonEmpty(caption) {
		capHTML = st.markdownify(fmt.Sprint(caption), sc)
	}
	if nonEmpty(attr) {
		attrHTML = st.markdownify(fmt.Sprint(attr), sc)
	}
	alt := sc.Get("alt")
	if !nonEmpty(alt) && nonEmpty(caption) {
		alt = plainify(capHTML)
	}
	title := sc.Get("title")
	data := struct {
		Class, Target, Rel, Alt, Width, Height, Loading, Title any
		Src, Link, AttrLink                                    template.URL
		HasAlt, Figcaption, CaptionPara                        bool
		Caption, Attr                                          template.HTML
	}{
		Class: empty(sc.Get("class")), Target: empty(sc.Get("target")), Rel: empty(sc.Get("rel")),
		Alt: alt, Width: empty(sc.Get("width")), Height: empty(sc.Get("height")), Loading: empty(sc.Get("loading")),
		Title:  empty(title),
		Src:    safeURL(img.url),
		HasAlt: nonEmpty(sc.Get("alt")) || nonEmpty(caption),
		// Hugo links when link is set at all, even to nothing usable.
		Figcaption:  nonEmpty(title) || nonEmpty(caption) || nonEmpty(attr),
		CaptionPara: nonEmpty(caption) || nonEmpty(attr),
		Caption:     template.HTML(capHTML), Attr: template.HTML(attrHTML),
	}
	if !link.drop && link.url != "" {
		data.Link = safeURL(link.url)
	}
	if !attrLink.drop && attrLink.url != "" {
		data.AttrLink = safeURL(attrLink.url)
	}
	out := layout("figure", data)

	md := "![" + escapeLinkText(sc.str("alt", -1)) + "](" + markdownURL(img.md)
	if t := sc.str("title", -1); t != "" {
		md += ` "` + escapeTitle(t) + `"`
	}
	md += ")"
	if nonEmpty(caption) {
		if c := strings.Join(strings.Fields(st.twinOf(fmt.Sprint(caption), sc.line)), " "); c != "" {
			md += "\n" + italic(c)
		}
	}
	return expansion{out: out, md: md}
}

// figureDest resolves one of a figure's URLs (src, link, attrlink) as a
// Markdown destination is resolved, and leaves out javascript:, vbscript:,
// file: and data: URLs other than images unless raw HTML is allowed, as
// writeURL does for Markdown links: a figure's attributes are written by
// folio, so nothing else would clean them.
func (st *state) figureDest(dest string, image bool, line int) target {
	t := st.resolveDest(dest, image, line)
	if !st.r.opts.Unsafe && (html.IsDangerousURL([]byte(t.url)) || html.IsDangerousURL([]byte(t.md))) {
		return target{}
	}
	return t
}

// empty turns a value Hugo's {{ with }} would skip into nil.
func empty(v any) any {
	if !nonEmpty(v) {
		return nil
	}
	return v
}

// safeURL marks a URL folio resolved (and cleaned of javascript: and the
// like) as safe for an href or src, so html/template only escapes it for
// the attribute, as Hugo's template does with the value it computed.
func safeURL(u string) template.URL { return template.URL(u) }

// highlightCall renders Hugo's highlight shortcode: the inner content,
// de-indented and trimmed of blank lines, highlighted in the language of
// the first argument with the options of the second ("linenos=table,
// hl_lines=2 4-5,linenostart=10,anchorlinenos=true").
func (st *state) highlightCall(sc *shortcode) expansion {
	code := strings.Trim(string(sc.InnerDeindent()), "\n\r")
	lang := fmt.Sprint(or(sc.Get(0), ""))
	opts := ""
	if p, ok := sc.Params.([]any); ok && len(p) == 2 {
		opts = fmt.Sprint(p[1])
	}
	h := st.r.markup.Highlight
	if err := applyHighlightOptions(&h, opts); err != nil {
		st.callError(sc, err)
	}
	var b strings.Builder
	st.highlight(&b, code, lang, h)
	return expansion{out: b.String(), md: fence(lang, code), block: true}
}

// param renders Hugo's param shortcode: the page's param (or the site's)
// named by the first argument.
func (st *state) param(sc *shortcode) expansion {
	name := sc.Get(0)
	if !nonEmpty(name) {
		st.issue(sc.line, "param: missing param key: %s", sc.Position())
		return expansion{}
	}
	v, err := sc.Page.Param(name)
	if err != nil || !truthy(v) {
		st.issue(sc.line, "param: %q not found: %s", fmt.Sprint(name), sc.Position())
		return expansion{}
	}
	out := layout("text", v)
	return expansion{out: out, md: plainify(out)}
}

// refCall renders ref and relref: the target's absolute URL (every URL
// folio writes is absolute, relref's too).
func (st *state) refCall(sc *shortcode) expansion {
	u, dropped := st.refArgs(sc)
	if dropped {
		return expansion{dropped: true}
	}
	return expansion{out: template.HTMLEscapeString(u), md: u, url: u}
}

// callError reports a failed call as Hugo fails the build: an error at
// the call's line.
func (st *state) callError(sc *shortcode, err error) {
	if err != nil {
		st.issue(sc.line, "shortcode %q: %v", sc.Name, err)
	}
}
