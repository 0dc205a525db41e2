package render

import (
	"errors"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strconv"

	"folio/pipeline"
)

// # Alias templates
//
// Hugo writes the page at each alias (a front matter alias, a list's
// /page/1/) by running the site's alias template, layouts/alias.html or
// layouts/_default/alias.html, the site's own before its themes', with
// .Permalink the URL the alias leads to and the page's methods (.Title,
// .Params, .Site…) beside it; without one, its own. folio build writes
// that page in its export for a static host that cannot answer the 301
// that serve, the nginx config and the Worker answer (the contract's
// rule for aliases); LoadTemplates loads the template and AliasPage runs
// it, within the bounds of any site template.

// aliasNames are where an alias template may be, below a layouts folder,
// in the order Hugo looks.
var aliasNames = []string{"alias.html", "_default/alias.html"}

// loadAlias parses the first alias template of the roots (layouts
// folders, the site's first). One that does not parse is a warning, and
// folio's own page stands at the aliases.
func (t *Templates) loadAlias(fsys fs.FS, roots []string) {
	for _, root := range roots {
		for _, name := range aliasNames {
			p := path.Join(root, name)
			if _, err := fs.Stat(fsys, p); err != nil {
				continue
			}
			data, err := t.read(fsys, p)
			if err == nil {
				_, err = t.master.New(p).Parse(string(data))
			}
			if err != nil {
				pr := templateProblem(p, err)
				pr.Severity, pr.Message = pipeline.Warning, pr.Message+" (folio build writes its own page at each alias)"
				t.problems = append(t.problems, pr)
				t.aliasFailed = true
				return
			}
			t.alias = p
			return
		}
	}
}

// HasAlias reports whether the site has an alias template that parsed.
func (t *Templates) HasAlias() bool { return t != nil && t.alias != "" }

// AliasFile is the alias template's file ("layouts/alias.html"), "" when
// the site has none that parsed.
func (t *Templates) AliasFile() string {
	if t == nil {
		return ""
	}
	return t.alias
}

// aliasData is what the alias template sees: Hugo's .Permalink, the URL
// the alias leads to, beside the page's own methods.
type aliasData struct {
	*page
	Permalink string
}

// An AliasLang is the language of the page an alias leads to, which is
// site.Language in the template, as in Hugo's site of that language.
type AliasLang struct {
	Code, Locale string
}

// AliasPage runs the site's alias template for an alias of the page of
// post p (nil for a page without a content file, a list without an
// _index) that leads to permalink, an absolute URL, in lang (its Code
// "" for the site's). It is nil when the site has no alias template, or
// when the template fails, which the problem (a warning at the
// template's line) says; the export then writes folio's own page.
func (r *Renderer) AliasPage(p *pipeline.Post, permalink string, lang AliasLang, res Resolver) (out []byte, problem *pipeline.Problem) {
	tpls := r.opts.Templates
	if !tpls.HasAlias() {
		return nil, nil
	}
	fail := func(err error) ([]byte, *pipeline.Problem) {
		pr := pipeline.Problem{Path: tpls.alias, Line: 1, Severity: pipeline.Warning, Message: err.Error()}
		if m := aliasErrAt.FindStringSubmatch(pr.Message); m != nil {
			pr.Line, _ = strconv.Atoi(m[1])
			pr.Message = "template: " + pr.Message[len(m[0]):]
		}
		pr.Message += " (folio build writes its own page at this alias)"
		return nil, &pr
	}
	if p == nil {
		p = &pipeline.Post{}
	}
	if res == nil {
		res = noPosts{}
	}
	st := r.newState(p, res)
	st.pageURL = permalink
	if s := r.opts.Site; lang.Code != "" && (s == nil || s.Language != lang.Code) {
		in := Site{}
		if s != nil {
			in = *s
		}
		in.Language, in.LanguageCode = lang.Code, lang.Locale
		st.siteView = &site{st: st, opts: &in}
	}
	defer func() {
		if v := recover(); v != nil {
			out, problem = fail(fmt.Errorf("internal error: %v", v))
		}
	}()
	c, err := tpls.get()
	if err != nil {
		return fail(err)
	}
	defer tpls.put(c)
	c.env.bindHook(st, 1, "alias template")
	w := &limitedWriter{max: maxCallOutput}
	if err := c.set.ExecuteTemplate(w, tpls.alias, aliasData{page: st.pageView(), Permalink: permalink}); err != nil {
		return fail(execError(err))
	}
	if len(st.issues) > 0 {
		return fail(errors.New(st.issues[0].Message))
	}
	return []byte(w.String()), nil
}

// aliasErrAt is the place execError puts first: "template FILE:LINE: ".
var aliasErrAt = regexp.MustCompile(`^template [^:]*:(\d+): `)
