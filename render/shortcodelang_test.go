package render

import (
	"strings"
	"testing"
	"testing/fstest"
)

// TestShortcodeLanguageVariants: a page of another language than the
// site's calls its language's variant of a shortcode, else the variant
// without a language, never the site language's own (review 32 item 18:
// with notice.html and notice.en.html, Hugo 0.165's French page calls
// notice.html; folio called notice.en.html).
func TestShortcodeLanguageVariants(t *testing.T) {
	tests := []struct {
		files []string
		lang  string
		want  string
	}{
		{[]string{"notice.html", "notice.en.html"}, "en", "notice.en.html"},
		{[]string{"notice.html", "notice.en.html"}, "fr", "notice.html"},
		{[]string{"notice.html", "notice.en.html", "notice.fr.html"}, "fr", "notice.fr.html"},
		{[]string{"notice.html", "notice.en.html", "notice.fr.html"}, "de", "notice.html"},
		{[]string{"notice.en.html"}, "fr", "notice.en.html"}, // nothing else to call
		{[]string{"notice.html"}, "fr", "notice.html"},
	}
	for _, tt := range tests {
		fsys := fstest.MapFS{}
		for _, f := range tt.files {
			fsys["layouts/_shortcodes/"+f] = &fstest.MapFile{Data: []byte(f)}
		}
		tpl := LoadTemplates(fsys, nil, "en", "fr", "de")
		st := tpl.shortcode("notice", tt.lang, false)
		if st == nil {
			t.Errorf("%v, %s: no template", tt.files, tt.lang)
			continue
		}
		var got string
		if tm := tpl.master.Lookup(st.name); tm != nil && tm.Tree != nil {
			got = tm.Tree.Root.String()
		}
		if !strings.Contains(got, "{{end}}"+tt.want+"{{if") { // the body between folio's markers
			t.Errorf("%v, a page in %s calls %q, want %s", tt.files, tt.lang, got, tt.want)
		}
	}
}
