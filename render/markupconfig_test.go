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
