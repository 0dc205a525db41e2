package host

import "testing"

// TestTemplatePath: the paths of a Hugo site a template is read from,
// whose save makes the site read again, and those it is not.
func TestTemplatePath(t *testing.T) {
	r := roots{hugo: true, themes: "themes/congo\n_vendor/github.com/x/mod"}
	for rel, want := range map[string]bool{
		"layouts/_shortcodes/note.html":                     true,
		"layouts/shortcodes/note.html":                      true,
		"layouts/_partials/head.html":                       true,
		"layouts/partials/a/b.html":                         true,
		"layouts/_markup/render-link.html":                  true,
		"layouts/posts/_markup/render-image.html":           true,
		"layouts/_shortcodes":                               true,
		"i18n/en.yaml":                                      true,
		"data/social.json":                                  true,
		"themes/congo/layouts/shortcodes/alert.html":        true,
		"themes/congo/i18n/fr.yaml":                         true,
		"_vendor/github.com/x/mod/layouts/_partials/x.html": true,
		"layouts/_default/single.html":                      false, // Hugo's layouts: folio does not run them
		"layouts/index.html":                                false,
		"layouts":                                           false,
		"themes/congo/layouts/_default/list.html":           false,
		"themes/other/layouts/shortcodes/x.html":            false, // not a theme of the site
		"content/posts/layouts/_shortcodes/x.md":            false,
		"static/data/x.json":                                false,
		"assets/i18n.css":                                   false,
	} {
		if got := r.templatePath(rel); got != want {
			t.Errorf("templatePath(%q) = %v, want %v", rel, got, want)
		}
	}
}

// TestSiteIgnore: a Hugo site's folder without Hugo's output, caches and
// editors' files, except in its static folders, which Hugo publishes
// whole.
func TestSiteIgnore(t *testing.T) {
	ignore := siteIgnore(nil, roots{hugo: true, static: "static\nthemes/congo/static\nextra"})
	for rel, want := range map[string]bool{
		"content/posts/.x.md.swp":          true,
		"content/posts/x.md~":              true,
		".git/index":                       true,
		"public/index.html":                true,
		"resources/_gen/a.css":             true,
		"node_modules/x/index.js":          true,
		"static/.htaccess":                 false,
		"static/.well-known/security.txt":  false,
		"static/notes.txt~":                false,
		"static":                           false,
		"themes/congo/static/.nojekyll":    false,
		"themes/congo/layouts/.x.html.swp": true,
		"extra/.hidden":                    false,
		"extrafolder/.hidden":              true,
		"content/static/.hidden":           true,
		"content/posts/first.md":           false,
	} {
		if got := ignore(rel); got != want {
			t.Errorf("ignore(%q) = %v, want %v", rel, got, want)
		}
	}
}
