// Package funcs holds the template functions of Hugo that a site's own
// shortcode templates call, as Hugo 0.165 defines them: the names a
// template writes (markdownify, default, printf, where, partial, …), the
// namespaces behind them (strings.TrimSpace, collections.Where, …) and
// their behaviour, read from Hugo's source and checked against Hugo by
// render's oracle tests.
//
// A function that needs the rendering it runs in (markdownify, partial,
// ref, relURL, T, now, …) asks the Env it was made with; Map makes the
// function map once per template set, so the Env is reached through a
// function that returns the one in force.
//
// Templates are untrusted input: every string, list and map a function
// makes is checked by Env.Size, which bounds the size of one value and
// charges the page's budget for the work, so a template that grows a
// string in a loop stops with an error instead of exhausting the server.
// Functions that would need the network, the disk outside the site, or
// Hugo Pipes are not here: a template calling one fails to parse with a
// message naming the template file, the line and the function.
package funcs

import (
	"html/template"
	"time"
)

// An Env is what the functions need from the rendering they run in.
type Env interface {
	// Size fails for a value too large to make, and charges the
	// rendering's budget for it.
	Size(v any) error
	// Steps charges the rendering's budget for n steps of work a
	// function does without making anything: items compared one by one.
	Steps(n int) error
	// Markdownify renders Markdown as the page's content is rendered,
	// inline.
	Markdownify(s string) (template.HTML, error)
	// Highlight highlights code as Hugo's highlight function.
	Highlight(code, lang, opts string) (template.HTML, error)
	// CanHighlight reports whether the highlighter knows the language.
	CanHighlight(lang string) bool
	// Goat draws a GoAT diagram as SVG, as Hugo's diagrams.Goat: a value
	// with the methods Inner, Wrapped, Width and Height.
	Goat(src string) (any, error)
	// Partial executes a partial template of the site with a context.
	Partial(name string, ctx any) (any, error)
	// PartialExists reports whether the site has the partial.
	PartialExists(name string) bool
	// URL makes a URL relative to the site (relURL) or absolute (absURL).
	URL(s string, abs bool) string
	// LangURL is URL below the page's language's folder (relLangURL,
	// absLangURL): /fr/ on a French page of a multilingual site.
	LangURL(s string, abs bool) string
	// Ref resolves a reference from page (the "." of a template, or a
	// page) as ref and relref do.
	Ref(page any, args any, rel bool) (string, error)
	// Now is the instant the rendering is for.
	Now() time.Time
	// Translate is T and i18n: the translation of key.
	Translate(key string, ctx any) string
	// Warn and Error report what a template said with warnf and errorf;
	// Error stops the template's call.
	Warn(msg string)
	Error(msg string) error
	// Site and Hugo are the values of the site and hugo functions.
	Site() any
	Hugo() any
	// Emojify replaces :emoji: codes.
	Emojify(s string) template.HTML
	// Anchorize makes an id as headings get theirs.
	Anchorize(s string) string
}

// Map returns the functions, each calling env() for the Env in force.
// A template set is parsed with one Map; its clones each get their own.
func Map(env func() Env) template.FuncMap {
	n := &namespaces{env: env}
	m := template.FuncMap{}
	for name, f := range n.aliases() {
		m[name] = f
	}
	for name, ns := range n.all() {
		ns := ns
		m[name] = func() any { return ns }
	}
	return m
}

// namespaces holds one value per namespace, all sharing env.
type namespaces struct {
	env func() Env
}

// all maps namespace names to their values, as templates write
// strings.TrimSpace or collections.Where.
func (n *namespaces) all() map[string]any {
	return map[string]any{
		"cast":        &castNS{n},
		"collections": &collectionsNS{n},
		"compare":     &compareNS{n},
		"crypto":      &cryptoNS{n},
		"diagrams":    &diagramsNS{n},
		"encoding":    &encodingNS{n},
		"fmt":         &fmtNS{n},
		"hash":        &hashNS{n},
		"inflect":     &inflectNS{n},
		"lang":        &langNS{n},
		"math":        &mathNS{n},
		"partials":    &partialsNS{n},
		"path":        &pathNS{n},
		"reflect":     &reflectNS{n},
		"safe":        &safeNS{n},
		"strings":     &stringsNS{n},
		"templates":   &templatesNS{n},
		"time":        &timeNS{n},
		"transform":   &transformNS{n},
		"urls":        &urlsNS{n},
	}
}

// aliases are the functions templates call by a bare name.
func (n *namespaces) aliases() template.FuncMap {
	cast, coll, cmp := &castNS{n}, &collectionsNS{n}, &compareNS{n}
	cr, enc, f, h := &cryptoNS{n}, &encodingNS{n}, &fmtNS{n}, &hashNS{n}
	inf, lang, m, p := &inflectNS{n}, &langNS{n}, &mathNS{n}, &partialsNS{n}
	safe, s, tm, tr, u := &safeNS{n}, &stringsNS{n}, &timeNS{n}, &transformNS{n}, &urlsNS{n}
	_ = h
	return template.FuncMap{
		// cast
		"int": cast.ToInt, "float": cast.ToFloat, "string": cast.ToString,
		// collections
		"after": coll.After, "append": coll.Append, "apply": coll.Apply, "complement": coll.Complement,
		"delimit": coll.Delimit, "dict": coll.Dictionary, "first": coll.First, "in": coll.In,
		"index": coll.Index, "intersect": coll.Intersect, "isSet": coll.IsSet, "isset": coll.IsSet,
		"last": coll.Last, "merge": coll.Merge, "newScratch": coll.NewScratch, "querify": coll.Querify,
		"seq": coll.Seq, "shuffle": coll.Shuffle, "slice": coll.Slice, "sort": coll.Sort,
		"symdiff": coll.SymDiff, "union": coll.Union, "uniq": coll.Uniq, "where": coll.Where,
		"group": coll.Group, "keyVals": coll.KeyVals,
		// compare
		"cond": cmp.Conditional, "default": cmp.Default, "eq": cmp.Eq, "ne": cmp.Ne,
		"lt": cmp.Lt, "le": cmp.Le, "gt": cmp.Gt, "ge": cmp.Ge,
		// crypto
		"md5": cr.MD5, "sha1": cr.SHA1, "sha256": cr.SHA256, "hmac": cr.HMAC,
		// encoding
		"base64Decode": enc.Base64Decode, "base64Encode": enc.Base64Encode, "jsonify": enc.Jsonify,
		// fmt
		"errorf": f.Errorf, "erroridf": f.Erroridf, "print": f.Print, "printf": f.Printf,
		"println": f.Println, "warnf": f.Warnf, "warnidf": f.Warnidf,
		// inflect
		"humanize": inf.Humanize, "pluralize": inf.Pluralize, "singularize": inf.Singularize,
		// lang
		"i18n": lang.Translate, "T": lang.Translate,
		// math
		"add": m.Add, "sub": m.Sub, "mul": m.Mul, "div": m.Div, "mod": m.Mod, "modBool": m.ModBool, "pow": m.Pow,
		// partials
		"partial": p.Include, "partialCached": p.IncludeCached, "return": p.Return,
		// safe
		"safeCSS": safe.CSS, "safeHTML": safe.HTML, "safeHTMLAttr": safe.HTMLAttr, "safeJS": safe.JS,
		"safeJSStr": safe.JSStr, "safeURL": safe.URL,
		// strings
		"chomp": s.Chomp, "countrunes": s.CountRunes, "countwords": s.CountWords, "findRE": s.FindRE,
		"findRESubmatch": s.FindRESubmatch, "hasPrefix": s.HasPrefix, "hasSuffix": s.HasSuffix,
		"replace": s.Replace, "replaceRE": s.ReplaceRE, "slicestr": s.SliceString, "split": s.Split,
		"substr": s.Substr, "title": s.Title, "lower": s.ToLower, "upper": s.ToUpper, "trim": s.Trim,
		"truncate": s.Truncate,
		// time
		"dateFormat": tm.Format, "now": tm.Now, "duration": tm.Duration, "time": tm.AsTime,
		// transform
		"emojify": tr.Emojify, "highlight": tr.Highlight, "htmlEscape": tr.HTMLEscape,
		"htmlUnescape": tr.HTMLUnescape, "markdownify": tr.Markdownify, "plainify": tr.Plainify,
		"unmarshal": tr.Unmarshal,
		// urls
		"absLangURL": u.AbsLangURL, "absURL": u.AbsURL, "anchorize": u.Anchorize, "ref": u.Ref,
		"relLangURL": u.RelLangURL, "relref": u.RelRef, "relURL": u.RelURL, "urlize": u.URLize,
		// the site and Hugo
		"site": func() any { return n.env().Site() },
		"hugo": func() any { return n.env().Hugo() },
	}
}

// sized returns v when the Env accepts its size.
func (n *namespaces) sized(v any, err error) (any, error) {
	if err != nil {
		return nil, err
	}
	if err := n.env().Size(v); err != nil {
		return nil, err
	}
	return v, nil
}

// sizedString is sized for strings.
func (n *namespaces) sizedString(s string, err error) (string, error) {
	if err != nil {
		return "", err
	}
	if err := n.env().Size(s); err != nil {
		return "", err
	}
	return s, nil
}
