package render

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"folio/pipeline"
)

// renderWith renders body as blog/x.md with a site whose layouts are
// files (path → text).
func renderWith(t *testing.T, files map[string]string, body string) Result {
	t.Helper()
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	tpls := LoadTemplates(fsys, []string{"themes/theme"}, "en")
	for _, p := range tpls.Problems() {
		t.Logf("template problem: %s", p)
	}
	return renderBody(t, body, Options{BaseURL: testBase, Section: "blog", Templates: tpls})
}

func issuesOf(r Result) string {
	var b strings.Builder
	for _, is := range r.Issues {
		b.WriteString(is.Message + "\n")
	}
	return b.String()
}

// TestTemplateProblems: what a site's template gets wrong is a problem
// naming the template's file and line, at the call's line, and the call
// keeps its inner text; nothing panics.
func TestTemplateProblems(t *testing.T) {
	for _, tc := range []struct {
		name, template, body string
		issue                string // in order
		html                 string
	}{
		{"unknown function", "{{ .Get 0 }}\n{{ nosuchfunc . }}", "{{< x a >}}kept{{< /x >}}",
			`shortcode "x": layouts/_shortcodes/x.html:2: template: function "nosuchfunc" not defined`, "<p>kept</p>"},
		{"syntax error", "{{ if }}", "{{< x >}}", `layouts/_shortcodes/x.html:1:`, ""},
		{"errorf", `{{ errorf "bad %s" "input" }}`, "{{< x >}}inner{{< /x >}}", `shortcode "x": bad input`, "<p>inner</p>"},
		{"missing field", "{{ .Page.NoSuchThing }}", "{{< x >}}", `template layouts/_shortcodes/x.html:1: at .Page.NoSuchThing: can't evaluate field NoSuchThing in type Page`, ""},
		{"bad index", `{{ index (slice 1 2) "a" }}`, "{{< x >}}", "index: cannot index a list with a", ""},
		{"warnf", `{{ warnf "careful" }}ok`, "{{< x >}}", `shortcode "x": careful`, "ok\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderWith(t, map[string]string{"layouts/_shortcodes/x.html": tc.template}, tc.body+"\n")
			if !strings.Contains(issuesOf(r), tc.issue) {
				t.Errorf("issues:\n%swant one containing %q", issuesOf(r), tc.issue)
			}
			if tc.html != "" && !strings.Contains(string(r.HTML), tc.html) {
				t.Errorf("HTML %q lacks %q", r.HTML, tc.html)
			}
		})
	}
}

// TestTemplateBounds: templates that would run or grow without end stop
// at a bound, each as a problem at the call's line naming the bound; the
// page renders. The bounds are counted, so the same one stops a template
// on every machine: the clock, the last resort, is a fake here that
// advances tick at each of its readings (every 1,024 steps), so that it
// never decides a case but the one that asks for it; the steps are
// 16,384, not a million, to reach them sooner.
func TestTemplateBounds(t *testing.T) {
	fewerSteps(t, 1<<14)
	maps := `{{ $l := slice }}{{ range seq 300 }}{{ $l = $l | append (dict "n" .) }}{{ end }}`
	for _, tc := range []struct {
		name, template, issue string
		tick                  time.Duration
	}{
		{"loop", `{{ range seq 100000 }}{{ range seq 100000 }}{{ end }}{{ end }}`, "more than 16384 steps", 0},
		{"range over a number", `{{ range 2000000000 }}{{ end }}`, "more than 16384 steps", 0},
		{"recursion", `{{ define "r" }}{{ template "r" . }}{{ end }}{{ template "r" . }}`, "nested more than 64 deep", 0},
		{"binary recursion", `{{ define "b" }}{{ template "b" . }}{{ template "b" . }}{{ end }}{{ template "b" . }}`, "nested more than 64 deep", 0},
		{"partial recursion", `{{ partial "p" . }}`, "nested more than 64 deep", 0},
		{"doubling string", `{{ $s := "ab" }}{{ range seq 64 }}{{ $s = printf "%s%s" $s $s }}{{ end }}{{ $s }}`, "a value larger than 4194304 bytes", 0},
		{"growing slowly", `{{ $s := "" }}{{ range seq 100000 }}{{ $s = printf "%s%s" $s "0123456789" }}{{ end }}`, "made more than 256 MiB of values", 0},
		{"wide printf", `{{ printf "%999999999d" 1 }}`, "width", 0},
		{"huge repeat", `{{ strings.Repeat 1000000000 "x" }}`, "template limit", 0},
		{"huge seq", `{{ seq 100000000 }}`, "exceeds limit", 0},
		{"output", `{{ $s := strings.Repeat 1000 "x" }}{{ range seq 5000 }}{{ $s }}{{ end }}`, "output larger than", 0},
		{"appending", `{{ $l := slice 1 }}{{ range seq 40 }}{{ $l = $l | append $l }}{{ end }}`, "larger than", 0},
		{"searching a long list in a loop", `{{ $l := seq 10000 }}{{ range seq 100 }}{{ if in $l 0 }}{{ end }}{{ end }}`, "more than 16384 steps", 0},
		{"uniq of maps", maps + `{{ len (uniq $l) }}`, "items compared", 0},
		{"intersect of maps", maps + `{{ len (intersect $l $l) }}`, "items compared", 0},
		// try catches a call's error, not folio's limits.
		{"partial recursion in try", `{{ with try (partial "p" .) }}{{ .Err }}{{ end }}`, "nested more than 64 deep", 0},
		{"huge repeat in try", `{{ with try (strings.Repeat 1000000000 "x") }}{{ .Err }}{{ end }}`, "template limit", 0},
		{"loop in a partial in try", `{{ with try (partial "loop" .) }}{{ .Err }}{{ end }}`, "more than 16384 steps", 0},
		{"the clock, last", `{{ range seq 3000 }}{{ end }}`, "ran longer than 10s", 11 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fakeClock(t, tc.tick)
			r := renderWith(t, map[string]string{
				"layouts/_shortcodes/x.html":  tc.template,
				"layouts/_partials/p.html":    `{{ partial "p" . }}`,
				"layouts/_partials/loop.html": `{{ range seq 100000 }}{{ range seq 100000 }}{{ end }}{{ end }}`,
			}, "Before.\n\n{{< x >}}\n\nAfter.\n")
			if !strings.Contains(issuesOf(r), tc.issue) {
				t.Errorf("issues:\n%swant one containing %q", issuesOf(r), tc.issue)
			}
			if !strings.Contains(string(r.HTML), "<p>After.</p>") {
				t.Errorf("the page after the call is lost: %.200q", r.HTML)
			}
		})
	}
}

// fewerSteps sets a page's steps to n until the test ends.
func fewerSteps(t *testing.T, n int) {
	old := maxSteps
	maxSteps = n
	t.Cleanup(func() { maxSteps = old })
}

// fakeClock makes the templates' clock advance tick (1 ms when 0) at
// each reading, until the test ends.
func fakeClock(t *testing.T, tick time.Duration) {
	if tick == 0 {
		tick = time.Millisecond
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	clock = func() time.Time { now = now.Add(tick); return now }
	t.Cleanup(func() { clock = time.Now })
}

// TestSetFunctionsLinear: uniq, intersect, union, complement and symdiff
// find numbers and strings by value, so lists of 200,000 items take no
// more steps than lists of ten (a scan would take 10^10 comparisons, and
// be stopped by the step bound), and answer as Hugo's do.
func TestSetFunctionsLinear(t *testing.T) {
	fakeClock(t, 0)
	big := `{{ $a := seq 200000 }}{{ $b := seq 100000 200000 }}`
	for _, tc := range []struct{ template, want string }{
		{big + `{{ len (uniq ($a | append (seq 50000))) }}`, "200000"},
		{big + `{{ len (intersect $a $b) }}`, "100001"},
		{big + `{{ len (union $a $b) }}`, "200000"},
		{big + `{{ len (complement $b $a) }}`, "99999"},
		{big + `{{ len (symdiff $a $b) }}`, "99999"},
		{`{{ uniq (slice 1 1.0 "1" 1 "a" "a" (dict "k" 1) (dict "k" 1)) }}`, "[1 1 1 a map[k:1]]"},
		{`{{ intersect (slice 1 2 3 "x" (dict "k" 1)) (slice 3 "x" 2 (dict "k" 1)) }}`, "[2 3 x map[k:1]]"},
		{`{{ symdiff (slice 1 2 3) (slice 3 4) }}`, "[1 2 4]"},
	} {
		r := renderWith(t, map[string]string{"layouts/_shortcodes/x.html": tc.template}, "{{< x >}}\n")
		if r.Issues != nil {
			t.Errorf("%s: issues %v", tc.template, r.Issues)
		}
		if !strings.Contains(string(r.HTML), tc.want) {
			t.Errorf("%s: %q, want %q", tc.template, r.HTML, tc.want)
		}
	}
}

// TestTemplateLookup: the site's layouts win over its theme's, the new
// _shortcodes folder over the old shortcodes, a language variant over
// the plain file; a site template replaces Hugo's built-in of its name.
func TestTemplateLookup(t *testing.T) {
	r := renderWith(t, map[string]string{
		"layouts/_shortcodes/a.html":             "site-new",
		"layouts/shortcodes/a.html":              "site-old",
		"themes/theme/layouts/shortcodes/a.html": "theme",
		"themes/theme/layouts/shortcodes/b.html": "theme-b",
		"layouts/shortcodes/c.html":              "plain-c",
		"layouts/shortcodes/c.en.html":           "english-c",
		"layouts/shortcodes/c.fr.html":           "french-c",
		"layouts/_shortcodes/figure.html":        "site-figure",
		"layouts/_shortcodes/dir/d.html":         "nested-d",
	}, "{{< a >}} {{< b >}} {{< c >}} {{< figure src=x >}} {{< dir/d >}}\n")
	if want := "<p>site-new theme-b english-c site-figure nested-d</p>\n"; string(r.HTML) != want {
		t.Errorf("HTML %q, want %q", r.HTML, want)
	}
	if r.Issues != nil {
		t.Errorf("issues: %v", r.Issues)
	}
}

// TestForSnapshotReadsTheSite: a Hugo site's folder gives ForSnapshot its
// templates (the site's and its theme's), its params and its summary
// length.
func TestForSnapshotReadsTheSite(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("hugo.toml", "baseURL = 'https://example.org/'\ntitle = 'Site'\ntheme = 'th'\nsummaryLength = 3\n[params]\nwho = 'Ada'\n")
	write("layouts/_shortcodes/hi.html", "Hi {{ .Site.Params.who }} from {{ .Site.Title }}")
	write("themes/th/layouts/shortcodes/themed.html", "themed")
	write("content/posts/a.md", "---\ntitle: A\ndate: 2024-01-01\n---\n{{< hi >}} and {{< themed >}}.\n\nOne two three four.\n")
	cfg, err := pipeline.LoadSite(pipeline.SiteOptions{Source: dir})
	if err != nil {
		t.Fatal(err)
	}
	cfg.Section = "posts" // the posts' section, until the site model names it
	snap, err := pipeline.Build(os.DirFS(cfg.Root()), cfg, pipeline.Options{}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	r, ix := ForSnapshot(snap)
	posts := snap.Posts()
	if len(posts) != 1 {
		t.Fatalf("%d posts", len(posts))
	}
	got := r.Render(posts[0], ix)
	if want := "<p>Hi Ada from Site and themed.</p>\n<p>One two three four.</p>\n"; string(got.HTML) != want {
		t.Errorf("HTML %q, want %q (issues %v)", got.HTML, want, got.Issues)
	}
	if d := r.Description(posts[0]); d != "Hi Ada from Site and themed." {
		t.Errorf("description %q", d)
	}
}

// TestSiteData: the data folder is .Site.Data, the site's files over its
// theme's.
func TestSiteData(t *testing.T) {
	r := renderWith(t, map[string]string{
		"layouts/_shortcodes/social.html": `{{ $a := index .Site.Data.social.accounts (.Get 0) }}<a href="{{ $a.link }}">{{ $a.username }}</a> {{ .Site.Data.nested.deep.key }} {{ site.Data.theme.only }}`,
		"data/social.yml":                 "accounts:\n  matrix:\n    link: https://matrix.to/#/@me:example.org\n    username: \"@me\"\n",
		"data/nested/deep.toml":           "key = 'from toml'\n",
		"themes/theme/data/theme.json":    `{"only": "theme's"}`,
		"themes/theme/data/social.yml":    "accounts: {}\n",
	}, "{{< social matrix >}}\n")
	if want := `<a href="https://matrix.to/#/@me:example.org">@me</a> from toml theme&#39;s` + "\n"; string(r.HTML) != want {
		t.Errorf("HTML %q, want %q (issues %v)", r.HTML, want, r.Issues)
	}
}

// TestTemplatesFolioDoesNotRun: a template that does not parse (a theme's
// head partial calling Hugo Pipes, a shortcode no page uses) is a warning
// naming its file and line. Where content uses it, through a shortcode,
// a partial a shortcode calls or a render hook, it is an error at the
// call's line, unless what it lacks is a function of Hugo's for what is
// not folio's (Hugo Pipes, image processing, reading files): Hugo builds
// that page, so it is a warning, and the call keeps its inner text
// (jayqi/blog's about page, a shortcode resizing a photo from assets/).
func TestTemplatesFolioDoesNotRun(t *testing.T) {
	files := map[string]string{
		"themes/theme/layouts/partials/head/style.html":   "{{ $css := resources.Get \"main.css\" }}\n",
		"themes/theme/layouts/partials/ok.html":           "fine",
		"themes/theme/layouts/_shortcodes/unused.html":    "{{ readFile \"x\" }}",
		"layouts/_shortcodes/styled.html":                 "{{ partial \"head/style\" . }}{{ partial \"ok\" . }}",
		"layouts/_shortcodes/photo.html":                  "\n{{ $img := resources.Get \"me.jpg\" }}{{ $img.Permalink }}",
		"layouts/_shortcodes/typo.html":                   "{{ nosuchfunc 1 }}",
		"layouts/_markup/render-image.html":               "{{ with images.Config .Destination }}{{ .Width }}{{ end }}",
		"themes/theme/layouts/_shortcodes/uses-typo.html": "{{ partial \"typo\" . }}",
		"layouts/partials/typo.html":                      "{{ nosuchfunc 2 }}",
	}
	fsys := fstest.MapFS{}
	for p, text := range files {
		fsys[p] = &fstest.MapFile{Data: []byte(text)}
	}
	var got []string
	for _, p := range LoadTemplates(fsys, []string{"themes/theme"}, "en").Problems() {
		if p.Severity != pipeline.Warning {
			t.Errorf("an error for a template no page uses: %s", p)
		}
		got = append(got, p.String())
	}
	const notFolios = "which is Hugo's, not folio's: content using this template is rendered without it"
	want := []string{
		`layouts/_markup/render-image.html:1: warning: template: calls images (image processing), ` + notFolios,
		`layouts/_shortcodes/photo.html:2: warning: template: calls resources (Hugo Pipes), ` + notFolios,
		`layouts/_shortcodes/typo.html:1: warning: template: function "nosuchfunc" not defined (an error where content uses this template)`,
		`layouts/partials/typo.html:1: warning: template: function "nosuchfunc" not defined (an error where content uses this template)`,
		`themes/theme/layouts/_shortcodes/unused.html:1: warning: template: calls readFile (reading the project's files), ` + notFolios,
		`themes/theme/layouts/partials/head/style.html:1: warning: template: calls resources (Hugo Pipes), ` + notFolios,
	}
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, tc := range []struct {
		name, body  string // the call at line 7, after 4 of front matter and "Before."
		severity    pipeline.Severity
		issue, html string
	}{
		{"a partial calling Hugo Pipes", "{{< styled >}}", pipeline.Warning,
			`shortcode "styled": themes/theme/layouts/partials/head/style.html:1 calls resources (Hugo Pipes), which is Hugo's, not folio's; its inner text is kept`, ""},
		{"a shortcode calling Hugo Pipes", "{{< photo >}}", pipeline.Warning,
			`shortcode "photo": layouts/_shortcodes/photo.html:2 calls resources (Hugo Pipes), which is Hugo's, not folio's; its inner text is kept`, ""},
		{"its inner text kept", "{{% photo %}}*Me*, at work{{% /photo %}}", pipeline.Warning,
			`shortcode "photo": layouts/_shortcodes/photo.html:2 calls resources (Hugo Pipes), which is Hugo's, not folio's; its inner text is kept`, "<em>Me</em>, at work"},
		{"a render hook calling image processing", "![me](me.jpg)", pipeline.Warning,
			`render hook render-image.html: layouts/_markup/render-image.html:1 calls images (image processing), which is Hugo's, not folio's; folio renders the element itself`, `me.jpg" alt="me">`},
		{"a function Hugo has not either", "{{< typo >}}", pipeline.Error,
			`shortcode "typo": layouts/_shortcodes/typo.html:1: template: function "nosuchfunc" not defined`, ""},
		{"a partial calling a function Hugo has not either", "{{< uses-typo >}}", pipeline.Error,
			`shortcode "uses-typo": template themes/theme/layouts/_shortcodes/uses-typo.html:1: partial: partial "typo": layouts/partials/typo.html:1: template: function "nosuchfunc" not defined`, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := renderWith(t, files, "Before.\n\n"+tc.body+"\n")
			if len(r.Issues) != 1 || r.Issues[0].Line != 7 || r.Issues[0].Severity != tc.severity || r.Issues[0].Message != tc.issue {
				t.Errorf("issues %+v, want one %v at line 7: %q", r.Issues, tc.severity, tc.issue)
			}
			if !strings.Contains(string(r.HTML), tc.html) {
				t.Errorf("HTML %q, want it to hold %q", r.HTML, tc.html)
			}
		})
	}
}

// TestPartialOfAbsentTheme: a partial the site's template calls that is
// not found says, when a theme the site imports is missing, that the
// theme may hold it; with every theme there, it says no more.
func TestPartialOfAbsentTheme(t *testing.T) {
	files := fstest.MapFS{
		"layouts/_markup/render-heading.html": {Data: []byte(`{{ partial "td/render-heading.html" . }}`)},
		"themes/present/theme.toml":           {Data: []byte("")},
	}
	for _, tc := range []struct {
		themes []string
		want   string
	}{
		{[]string{"themes/present", "themes/docsy"}, `partial "td/render-heading.html" not found (themes/docsy, which may hold it, is missing: the warning at the config's theme or module says how to get it)`},
		{[]string{"themes/present"}, `partial "td/render-heading.html" not found`},
	} {
		r := renderBody(t, "## A heading\n", Options{BaseURL: testBase, Section: "blog", Templates: LoadTemplates(files, tc.themes, "en")})
		var got []string
		for _, is := range r.Issues {
			got = append(got, is.Message)
		}
		if len(got) != 1 || !strings.HasSuffix(got[0], tc.want) {
			t.Errorf("themes %v: issues %q, want one ending %q", tc.themes, got, tc.want)
		}
	}
}
