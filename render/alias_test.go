package render

import (
	"strings"
	"testing"
	"testing/fstest"

	"folio/pipeline"
)

// TestAliasPage: the site's alias template (its own before its theme's,
// alias.html before _default/alias.html) runs with .Permalink and the
// page's methods, in the target's language; a site without one, or one
// whose template fails, gets nil (folio's own page) and, for a failure, a
// warning at the template's line.
func TestAliasPage(t *testing.T) {
	const tpl = "{{ .Permalink }}|{{ .Title }}|{{ .Kind }}|{{ site.Language.LanguageCode }}"
	post := &pipeline.Post{Title: "A & B", PageMeta: &pipeline.PageMeta{Kind: "page"}}
	tests := []struct {
		name  string
		files map[string]string
		lang  AliasLang
		want  string
		line  int // of the warning, 0 for none
		// message is what the warning's message holds, when set.
		message string
	}{
		{name: "none", files: map[string]string{"layouts/_default/single.html": "x"}},
		{name: "site", files: map[string]string{"layouts/alias.html": tpl, "layouts/_default/alias.html": "no", "themes/t/layouts/alias.html": "no"},
			want: "https://example.org/a/|A &amp; B|page|en-GB"},
		{name: "_default", files: map[string]string{"layouts/_default/alias.html": tpl, "themes/t/layouts/alias.html": "no"},
			want: "https://example.org/a/|A &amp; B|page|en-GB"},
		{name: "theme", files: map[string]string{"themes/t/layouts/_default/alias.html": tpl}, want: "https://example.org/a/|A &amp; B|page|en-GB"},
		{name: "language", files: map[string]string{"layouts/alias.html": tpl}, lang: AliasLang{Code: "fr"}, want: "https://example.org/a/|A &amp; B|page|fr"},
		{name: "fails", files: map[string]string{"layouts/alias.html": "ok\n{{ .Nope }}"}, line: 2},
		// errorf's own message, at its line (was line 1), also through a
		// partial (at the partial's call).
		{name: "errorf", files: map[string]string{"layouts/alias.html": "ok\n\n{{ errorf \"no %s\" \"way\" }}"}, line: 3, message: "no way"},
		{name: "errorf in a partial", files: map[string]string{"layouts/alias.html": "ok\n{{ partial \"p.html\" . }}", "layouts/partials/p.html": "\n{{ errorf \"boom\" }}"}, line: 2, message: "boom"},
		{name: "does not parse", files: map[string]string{"layouts/alias.html": "{{ if }}"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, text := range tt.files {
				fsys[name] = &fstest.MapFile{Data: []byte(text)}
			}
			tpls := LoadTemplates(fsys, []string{"themes/t"}, "en")
			r := New(Options{BaseURL: "https://example.org/", Section: "posts", Templates: tpls,
				Site: &Site{Title: "S", Language: "en", LanguageCode: "en-GB"}})
			got, problem := r.AliasPage(post, "https://example.org/a/", tt.lang, nil, Result{})
			if string(got) != tt.want {
				t.Errorf("page %q, want %q", got, tt.want)
			}
			switch {
			case tt.line == 0 && problem != nil:
				t.Errorf("problem %v", problem)
			case tt.line != 0 && (problem == nil || problem.Line != tt.line || problem.Path != "layouts/alias.html" || problem.Severity != pipeline.Warning):
				t.Errorf("problem %+v, want a warning at layouts/alias.html:%d", problem, tt.line)
			case tt.message != "" && !strings.Contains(problem.Message, tt.message):
				t.Errorf("problem %q, want %q in it", problem.Message, tt.message)
			}
			if tt.name == "does not parse" {
				if ps := tpls.Problems(); len(ps) != 1 || !strings.Contains(ps[0].Message, "folio build writes its own page") {
					t.Errorf("problems %v", ps)
				}
			}
		})
	}
}
