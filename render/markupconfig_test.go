package render

import (
	"reflect"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestMarkupOfDefaults: a site that sets nothing renders with Hugo's
// defaults, the same both packages declare.
func TestMarkupOfDefaults(t *testing.T) {
	if got, want := *MarkupOf(pipeline.DefaultConfig()), DefaultMarkup(); !reflect.DeepEqual(got, want) {
		t.Errorf("MarkupOf(defaults) = %+v\nDefaultMarkup() = %+v", got, want)
	}
}

func TestMarkupOfSettings(t *testing.T) {
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fstest.MapFS{"hugo.toml": {Data: []byte(`
enableEmoji = true
[markup.goldmark.renderer]
hardWraps = true
[markup.goldmark.extensions]
linkify = false
[markup.goldmark.extensions.typographer]
disable = true
[markup.goldmark.parser]
autoHeadingIDType = "github-ascii"
[markup.highlight]
style = "dracula"
lineNos = "inline"
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	m := MarkupOf(cfg)
	got := []any{m.HardWraps, m.Linkify, m.Typographer.Disable, m.AutoIDType, m.Emoji, m.Highlight.Style, m.Highlight.LineNos, m.Highlight.LineNumbersInTable}
	want := []any{true, false, true, "github-ascii", true, "dracula", true, false}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("MarkupOf = %v, want %v", got, want)
	}
}

// TestMarkupAttributeBoolean: markup.goldmark.parser.attribute as a
// boolean, its shape before Hugo 0.81, sets the headings' attributes and
// leaves blocks' off. The HTML is Hugo 0.165's for this page and setting
// (checked with hugo: zhengzangw's blog sets attribute = true).
func TestMarkupAttributeBoolean(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"true", "<h1 class=\"cls\" id=\"head\">Head</h1>\n<p>para\n{.p}</p>\n"},
		{"false", "<h1 id=\"head-cls\">Head {.cls}</h1>\n<p>para\n{.p}</p>\n"},
	} {
		cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fstest.MapFS{"hugo.toml": {Data: []byte(
			"[markup.goldmark.parser]\nattribute = " + tc.value + "\n")}}})
		if err != nil {
			t.Fatalf("attribute = %s: %v", tc.value, err)
		}
		r := renderBody(t, "# Head {.cls}\n\npara\n{.p}\n", Options{BaseURL: testBase, Section: "blog", Markup: MarkupOf(cfg)})
		if got := string(r.HTML); got != tc.want {
			t.Errorf("attribute = %s:\n got %q\nwant %q", tc.value, got, tc.want)
		}
	}
}

// TestMarkupOfExtensions: the extensions Hugo configures from
// markup.goldmark.extensions reach the renderer as the site set them.
func TestMarkupOfExtensions(t *testing.T) {
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{FS: fstest.MapFS{"hugo.yaml": {Data: []byte(`
markup:
  goldmark:
    extensions:
      extras:
        delete: {enable: true}
        mark: {enable: true}
        superscript: {enable: true}
      passthrough:
        enable: true
        delimiters:
          block: [['\[', '\]'], ['$$', '$$']]
          inline: [['\(', '\)']]
      cjk:
        enable: true
        eastAsianLineBreaks: true
        eastAsianLineBreaksStyle: css3draft
        escapedSpace: true
`)}}})
	if err != nil {
		t.Fatal(err)
	}
	m := MarkupOf(cfg)
	want := Markup{
		Extras:      Extras{Delete: true, Mark: true, Superscript: true},
		Passthrough: Passthrough{Enable: true, Block: [][2]string{{`\[`, `\]`}, {"$$", "$$"}}, Inline: [][2]string{{`\(`, `\)`}}},
		CJK:         CJK{Enable: true, EastAsianLineBreaks: true, Style: "css3draft", EscapedSpace: true},
	}
	if got := (Markup{Extras: m.Extras, Passthrough: m.Passthrough, CJK: m.CJK}); !reflect.DeepEqual(got, want) {
		t.Errorf("MarkupOf = %+v\nwant %+v", got, want)
	}
}
