package render

import (
	"crypto/sha256"
	"fmt"
	"hash"
	"html/template"
	"io/fs"
	"maps"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"text/template/parse"

	"folio/pipeline"
	"folio/render/funcs"
)

// Templates are a Hugo site's own shortcode and partial templates: Go
// html/templates with Hugo's shortcode API and template functions
// (package funcs). They are read and parsed once per site configuration
// and shared by every rendering; a Templates is safe for concurrent use.
//
// Where they are: layouts/_shortcodes and layouts/shortcodes (Hugo's new
// and old names) for shortcodes, layouts/_partials and layouts/partials
// for partials, in the site's own layouts, then in each theme's
// (themes/<theme>/layouts), the first found winning. A shortcode's name
// is its path below that folder without ".html" ("notice",
// "docs/note"); a language variant (notice.en.html) wins for the site's
// language, and an output-format one (notice.html.html) over the plain
// file.
//
// A site's templates are input like its content: a template that does
// not parse (an unknown function, a syntax error) is a problem naming its
// file and line, and its calls keep their inner text; the execution of
// each is bounded (see limits.go), which the load prepares by adding a
// step to every range loop and every template's entry (instrument).
type Templates struct {
	master     *template.Template
	shortcodes map[string]*siteTemplate
	partials   map[string]string // partial path ("x.html") → template name
	// failedPartials are the partials that did not parse, by path, with
	// why: an error where a shortcode or hook calls one.
	failedPartials map[string]error
	// absent are the themes (folders) the site imports that are missing
	// or empty: a partial not found may be one of theirs.
	absent []string
	// alias is the alias template's name (its file), "" for none;
	// aliasFailed: the site has one, which did not parse (alias.go).
	alias       string
	aliasFailed bool
	hooks       map[hookKey]*siteTemplate
	hookKinds   map[string]bool // the kinds in hooks
	// loadingHooks is the folder of the _markup being loaded (hooks.go).
	loadingHooks string
	problems     []pipeline.Problem
	lang         string
	i18n         map[string]string
	// langI18n are the other languages' translations, by language;
	// langShortcodes their own variants of shortcodes (notice.fr.html),
	// by language and name.
	langI18n       map[string]map[string]string
	langShortcodes map[string]map[string]*siteTemplate
	// plainShortcodes are the shortcodes' variants without a language
	// (notice.html, not notice.en.html): what a page of another language
	// than the site's calls when its own has none, as Hugo picks them.
	plainShortcodes map[string]*siteTemplate
	data            map[string]any
	// fields are the mixed-case names templates read fields by
	// (.Params.repoBase): Hugo finds params whatever their case, so
	// params are given these names too (aliasKeys).
	fields map[string]bool
	// countsWords: a template reads what is counted in a body (see
	// CountsWords).
	countsWords bool

	pool sync.Pool // of *clone

	// sum hashes every file read, by name and bytes, in the order read
	// (Sum).
	sum hash.Hash
}

// Sum identifies what the templates were loaded from: the name and bytes
// of every file of the site's folder read (shortcodes, partials, render
// hooks, i18n and data), in order. Another Sum means output may differ.
func (t *Templates) Sum() [sha256.Size]byte {
	var out [sha256.Size]byte
	t.sum.Sum(out[:0])
	return out
}

// CountsWords reports whether a template asks a page for what is
// counted in its body (.WordCount, .ReadingTime): a shortcode or hook
// that does so of other pages (site.RegularPages) makes a post's page
// from other posts' bodies. Besides a field (.WordCount), a string may
// name it: sort and where call a page's method by the name they are
// given (sort site.RegularPages "WordCount" "desc").
func (t *Templates) CountsWords() bool { return t != nil && t.countsWords }

// wordCounts are the page methods whose values are counted in its body.
var wordCounts = []string{"WordCount", "ReadingTime", "FuzzyWordCount"}

// countsWords reports whether a template of set reads one of wordCounts
// of a page: by a field, or by a string naming it (or a path ending in
// it), as sort and where are given one.
func countsWords(set *template.Template, fields map[string]bool) bool {
	for _, name := range wordCounts {
		if fields[name] {
			return true
		}
	}
	found := false
	walkTrees(set, func(n parse.Node) {
		if s, ok := n.(*parse.StringNode); ok && !found {
			for seg := range strings.SplitSeq(s.Text, ".") {
				found = found || slices.Contains(wordCounts, seg)
			}
		}
	})
	return found
}

// read is readBounded, noted in the sum.
func (t *Templates) read(fsys fs.FS, p string) ([]byte, error) {
	data, err := readBounded(fsys, p)
	fmt.Fprintf(t.sum, "%q %d %v\n", p, len(data), err)
	t.sum.Write(data)
	return data, err
}

// A siteTemplate is one shortcode of the site.
type siteTemplate struct {
	name      string // the template's name in the set: its file
	usesInner bool
	// version1 is Hugo's legacy shortcode config ({{ $_hugo_config :=
	// `{ "version": 1 }` }}): a {{% %}} call's inner content is rendered
	// as Markdown on its own, and its output is HTML, placed as a {{< >}}
	// call's.
	version1 bool
	failed   error // it did not parse
	// root and rank order the candidates: the site's layouts (0) before
	// each theme's, then the variant (see variant).
	root, rank int
}

// maxTemplateFile bounds a template file read; maxTemplateFiles the files.
const (
	maxTemplateFile  = 1 << 20
	maxTemplateFiles = 4096
)

// LoadTemplates reads the shortcode and partial templates of the Hugo
// site whose root folder is fsys, its own layouts first, then each of
// themes' (theme folders relative to the root: "themes/PaperMod"). lang
// is the site's language, for language variants and i18n; others are a
// multilingual site's other languages, whose i18n is read too. A site
// without templates gives a Templates with none, never nil.
func LoadTemplates(fsys fs.FS, themes []string, lang string, others ...string) *Templates {
	t := &Templates{shortcodes: map[string]*siteTemplate{}, partials: map[string]string{}, failedPartials: map[string]error{}, hooks: map[hookKey]*siteTemplate{}, hookKinds: map[string]bool{}, lang: lang, sum: sha256.New()}
	for _, l := range others {
		if l != lang && l != "" {
			if t.langShortcodes == nil {
				t.langShortcodes = map[string]map[string]*siteTemplate{}
			}
			t.langShortcodes[l] = map[string]*siteTemplate{}
			t.plainShortcodes = map[string]*siteTemplate{}
		}
	}
	t.master = template.New("").Funcs(t.funcMap(func() *tplEnv { return nil }))
	roots := []string{"layouts"}
	for _, th := range themes {
		roots = append(roots, path.Join(th, "layouts"))
		if entries, err := fs.ReadDir(fsys, th); err != nil || len(entries) == 0 {
			t.absent = append(t.absent, th)
		}
	}
	files := 0
	for ri, root := range roots {
		for _, dir := range []string{"_shortcodes", "shortcodes"} {
			t.loadDir(fsys, path.Join(root, dir), &files, func(name, tname string, rank int, lang string) {
				st := &siteTemplate{name: tname, root: ri, rank: rank}
				if lang == "" && rank < rankLang && t.langShortcodes != nil {
					if old, ok := t.plainShortcodes[name]; !ok || (old.root >= ri && old.rank < rank) {
						t.plainShortcodes[name] = st
					}
				}
				set := t.shortcodes
				if lang != "" {
					set = t.langShortcodes[lang]
				}
				if old, ok := set[name]; ok && (old.root < ri || old.rank >= rank) {
					return
				}
				set[name] = st
			})
		}
		for _, dir := range []string{"_partials", "partials"} {
			t.loadDir(fsys, path.Join(root, dir), &files, func(name, tname string, rank int, lang string) {
				if _, ok := t.partials[name+".html"]; !ok && lang == "" {
					t.partials[name+".html"] = tname
				}
			})
		}
		t.loadHooks(fsys, root, ri, &files)
	}
	t.loadAlias(fsys, roots)
	t.i18n = t.loadI18n(fsys, append([]string{"."}, themes...), lang)
	for _, l := range others {
		if l != lang {
			if t.langI18n == nil {
				t.langI18n = map[string]map[string]string{}
			}
			t.langI18n[l] = t.loadI18n(fsys, append([]string{"."}, themes...), l)
		}
	}
	t.loadData(fsys, append([]string{"."}, themes...))
	rewriteTry(t.master)
	t.fields = fieldNames(t.master)
	t.countsWords = countsWords(t.master, t.fields)
	t.instrument()
	for _, st := range t.shortcodes {
		if st.failed == nil {
			st.usesInner = usesInner(t.master.Lookup(st.name))
		}
	}
	for _, set := range append(slices.Collect(maps.Values(t.langShortcodes)), t.plainShortcodes) {
		for _, st := range set {
			st.usesInner = usesInner(t.master.Lookup(st.name))
		}
	}
	return t
}

// loadDir parses every .html file below dir, calling found with its
// name (path below dir, without extensions), its template name, the
// rank of its variant (higher wins) and, for a variant of another of the
// site's languages than its own (notice.fr.html), that language, which
// only shortcodes have. Earlier roots have been loaded first; found
// decides what wins.
func (t *Templates) loadDir(fsys fs.FS, dir string, files *int, found func(name, tname string, rank int, lang string)) {
	_ = fs.WalkDir(fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".html") {
			return nil
		}
		rel := strings.TrimSuffix(strings.TrimPrefix(p, dir+"/"), ".html")
		name, rank, lang, ok := t.variant(rel)
		if !ok || (lang != "" && !strings.Contains(dir, "shortcodes")) {
			return nil
		}
		if *files++; *files > maxTemplateFiles {
			return fs.SkipAll
		}
		data, err := t.read(fsys, p)
		if err != nil {
			t.problems = append(t.problems, pipeline.Problem{Path: p, Line: 1, Message: err.Error()})
			return nil
		}
		tname := p
		if _, err := t.master.New(tname).Parse(string(data)); err != nil {
			// A warning here: a theme's templates are mostly for its
			// layouts, which folio does not run (a Hugo Pipes call in
			// its head partial is no matter). Where content uses the
			// template, through a shortcode, a hook or a partial they
			// call, the failure is an error at that line.
			// A function of Hugo's for what is not folio's (Hugo
			// Pipes, image processing) is a warning there too.
			pr := templateProblem(p, err)
			failure := parseFailure(problemText{text: pr.String(), where: fmt.Sprintf("%s:%d", pr.Path, pr.Line)}, err)
			warning := pr
			warning.Severity, warning.Message = pipeline.Warning, pr.Message+" (an error where content uses this template)"
			if h := hugoOnlyOf(failure); h != nil {
				warning.Message = fmt.Sprintf("template: calls %s (%s), which is Hugo's, not folio's: content using this template is rendered without it", h.fn, h.what)
			}
			t.problems = append(t.problems, warning)
			if strings.Contains(dir, "partials") {
				if _, taken := t.partials[name+".html"]; !taken && t.failedPartials[name+".html"] == nil {
					t.failedPartials[name+".html"] = failure
				}
			}
			if strings.Contains(dir, "shortcodes") && lang == "" {
				if _, taken := t.shortcodes[name]; !taken {
					t.shortcodes[name] = &siteTemplate{name: tname, failed: failure}
				}
			}
			if path.Base(dir) == "_markup" {
				t.failedHook(name, tname, failure)
			}
			return nil
		}
		found(name, tname, rank, lang)
		if st, ok := t.shortcodes[name]; ok && st.name == tname && legacyConfig.Match(data) {
			st.version1 = true
		}
		if st, ok := t.langShortcodes[lang][name]; ok && lang != "" && st.name == tname && legacyConfig.Match(data) {
			st.version1 = true
		}
		if st, ok := t.plainShortcodes[name]; ok && st.name == tname && legacyConfig.Match(data) {
			st.version1 = true
		}
		return nil
	})
}

// rankLang is the rank a variant's language adds (variant): under it, a
// variant names no language.
const rankLang = 2

// variant reads a file name's extra extensions: "notice" (rank 0),
// "notice.html" (an output format, 1), "notice.en" (the site's language,
// 2; lang is another of a multilingual site's languages). Other variants
// (another language, another format) are not used.
func (t *Templates) variant(rel string) (name string, rank int, lang string, ok bool) {
	base := path.Base(rel)
	dir := strings.TrimSuffix(rel, base)
	parts := strings.Split(base, ".")
	name = dir + parts[0]
	for _, x := range parts[1:] {
		switch {
		case x == "html":
			rank += 1
		case x == t.lang && x != "":
			rank += rankLang
		case t.langShortcodes[x] != nil && lang == "":
			rank += rankLang
			lang = x
		default:
			return "", 0, "", false
		}
	}
	return name, rank, lang, true
}

func readBounded(fsys fs.FS, p string) ([]byte, error) {
	info, err := fs.Stat(fsys, p)
	if err != nil {
		return nil, err
	}
	if info.Size() > maxTemplateFile {
		return nil, fmt.Errorf("template larger than %d bytes", maxTemplateFile)
	}
	return fs.ReadFile(fsys, p)
}

// legacyConfig is Hugo's shortcode config of version 1.
var legacyConfig = regexp.MustCompile("\\$_hugo_config\\s*:=\\s*`\\s*\\{\\s*\"version\"\\s*:\\s*1\\s*\\}\\s*`")

var templateErr = regexp.MustCompile(`^template: ([^:]*):(\d+):(?:\d+:)? ?(.*)$`)

// templateProblem turns a parse error into a problem at its line.
func templateProblem(file string, err error) pipeline.Problem {
	msg := err.Error()
	line := 1
	if m := templateErr.FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[2])
		msg = m[3]
	}
	return pipeline.Problem{Path: file, Line: line, Message: "template: " + msg}
}

// Problems are the templates that could not be read or parsed, each at
// its file (relative to the site's root) and line.
func (t *Templates) Problems() []pipeline.Problem {
	if t == nil {
		return nil
	}
	return slices.Clone(t.problems)
}

// shortcode finds the site's template for a call on a page of lang: its
// language's variant (notice.fr.html) from the same or an earlier root
// (the site's layouts before a theme's), else the site's.
func (t *Templates) shortcode(name, lang string, markup bool) *siteTemplate {
	if t == nil {
		return nil
	}
	st := t.shortcodes[name]
	if v := t.langShortcodes[lang][name]; v != nil && (st == nil || v.root <= st.root) {
		return v
	}
	if v := t.plainShortcodes[name]; v != nil && lang != t.lang && lang != "" {
		// Not the site's language's variant (notice.en.html): Hugo's
		// French page calls notice.html.
		return v
	}
	return st
}

// failedPartial is why the partial name (as partial finds it) did not
// parse, nil when it did or there is none.
func (t *Templates) failedPartial(name string) error {
	if t == nil {
		return nil
	}
	if path.Ext(name) == "" {
		name += ".html"
	}
	return t.failedPartials[strings.TrimPrefix(strings.TrimPrefix(name, "_partials/"), "partials/")]
}

// partial finds a partial's template name: "x", "x.html", "dir/x.html",
// or one defined inline ("partials/inline/x.html").
func (t *Templates) partial(name string) (string, bool) {
	if t == nil {
		return "", false
	}
	if path.Ext(name) == "" {
		name += ".html"
	}
	name = strings.TrimPrefix(strings.TrimPrefix(name, "_partials/"), "partials/")
	if tn, ok := t.partials[name]; ok {
		return tn, true
	}
	for _, inline := range []string{"_partials/" + name, "partials/" + name} {
		if t.master.Lookup(inline) != nil {
			return inline, true
		}
	}
	return "", false
}

// Hidden functions the instrumentation calls.
const (
	fnStep  = "__folio_step"
	fnEnter = "__folio_enter"
	fnLeave = "__folio_leave"
)

// instrument adds a step to the start of every range loop's body and an
// entry and exit count to every template, so that loops and recursion are
// paid for from the page's budget. The calls are {{ if f }}{{ end }}:
// they write nothing, and html/template's escaping leaves them alone.
func (t *Templates) instrument() {
	instrument(t.master)
}

// instrument instruments every template of set.
func instrument(set *template.Template) {
	for _, tm := range set.Templates() {
		instrumentTree(tm.Tree)
	}
}

// instrumentTree instruments one template's tree.
func instrumentTree(tree *parse.Tree) {
	if tree == nil || tree.Root == nil {
		return
	}
	root := tree.Root
	walkRanges(root)
	pos, line := root.Pos, 1
	root.Nodes = append([]parse.Node{hiddenCall(fnEnter, pos, line)}, root.Nodes...)
	root.Nodes = append(root.Nodes, hiddenCall(fnLeave, pos, line))
}

func walkRanges(list *parse.ListNode) {
	if list == nil {
		return
	}
	for _, n := range list.Nodes {
		switch n := n.(type) {
		case *parse.RangeNode:
			n.List.Nodes = append([]parse.Node{hiddenCall(fnStep, n.Pos, n.Line)}, n.List.Nodes...)
			walkRanges(n.List)
			walkRanges(n.ElseList)
		case *parse.IfNode:
			walkRanges(n.List)
			walkRanges(n.ElseList)
		case *parse.WithNode:
			walkRanges(n.List)
			walkRanges(n.ElseList)
		case *parse.ListNode:
			walkRanges(n)
		}
	}
}

// hiddenCall is {{ if name }}{{ end }}.
func hiddenCall(name string, pos parse.Pos, line int) parse.Node {
	cmd := &parse.CommandNode{NodeType: parse.NodeCommand, Pos: pos, Args: []parse.Node{parse.NewIdentifier(name).SetPos(pos)}}
	pipe := &parse.PipeNode{NodeType: parse.NodePipe, Pos: pos, Line: line, Cmds: []*parse.CommandNode{cmd}}
	return &parse.IfNode{BranchNode: parse.BranchNode{NodeType: parse.NodeIf, Pos: pos, Line: line, Pipe: pipe,
		List: &parse.ListNode{NodeType: parse.NodeList, Pos: pos}}}
}

// usesInner reports whether a shortcode's template reads .Inner or
// .InnerDeindent, as Hugo decides whether a call takes a closing tag.
func usesInner(tm *template.Template) bool {
	if tm == nil || tm.Tree == nil {
		return false
	}
	found := false
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if found || n == nil {
			return
		}
		switch n := n.(type) {
		case *parse.ListNode:
			if n == nil {
				return
			}
			for _, c := range n.Nodes {
				walk(c)
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n == nil {
				return
			}
			for _, c := range n.Cmds {
				walk(c)
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.FieldNode:
			found = found || slices.Contains(n.Ident, "Inner") || slices.Contains(n.Ident, "InnerDeindent")
		case *parse.VariableNode: // {{ $.Inner }}, as Hugo counts it
			found = found || slices.Contains(n.Ident, "Inner") || slices.Contains(n.Ident, "InnerDeindent")
		case *parse.ChainNode:
			found = found || slices.Contains(n.Field, "Inner") || slices.Contains(n.Field, "InnerDeindent")
			walk(n.Node)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	walk(tm.Tree.Root)
	return found
}

// A clone is a copy of the template set whose functions are bound to one
// execution at a time: html/template binds functions to a set, not to an
// execution, and a page's functions need its rendering.
type clone struct {
	set *template.Template
	env *tplEnv
}

// get takes a clone from the pool, or makes one.
func (t *Templates) get() (*clone, error) {
	if c, ok := t.pool.Get().(*clone); ok {
		return c, nil
	}
	c := &clone{env: &tplEnv{t: t}}
	set, err := t.master.Clone()
	if err != nil {
		return nil, err
	}
	c.env.set = set
	c.set = set.Funcs(t.funcMap(func() *tplEnv { return c.env }))
	return c, nil
}

func (t *Templates) put(c *clone) {
	c.env.reset()
	t.pool.Put(c)
}

// funcMap is Hugo's functions and the hidden ones, bound to the env that
// env returns.
func (t *Templates) funcMap(env func() *tplEnv) template.FuncMap {
	m := funcs.Map(func() funcs.Env { return env() })
	m[fnStep] = func() (bool, error) { return false, env().step() }
	m[fnEnter] = func() (bool, error) { return false, env().enter() }
	m[fnLeave] = func() (bool, error) { env().leave(); return false, nil }
	m[fnTry], m[fnTryVal] = funcs.TryOK, funcs.TryOK
	m[fnTryCall] = tryCall(m)
	return m
}

// fieldNames collects the mixed-case field names the templates use.
func fieldNames(set *template.Template) map[string]bool {
	out := map[string]bool{}
	add := func(names []string) {
		for _, n := range names {
			if strings.ToLower(n) != n {
				out[n] = true
			}
		}
	}
	walkTrees(set, func(n parse.Node) {
		switch n := n.(type) {
		case *parse.FieldNode:
			add(n.Ident)
		case *parse.VariableNode:
			add(n.Ident)
		case *parse.ChainNode:
			add(n.Field)
		}
	})
	return out
}

// walkTrees calls visit with every node of set's templates' actions,
// their pipelines and arguments.
func walkTrees(set *template.Template, visit func(parse.Node)) {
	for _, tm := range set.Templates() {
		walkTree(tm.Tree, visit)
	}
}

// walkTree is walkTrees for one template's tree.
func walkTree(tree *parse.Tree, visit func(parse.Node)) {
	var walk func(n parse.Node)
	walk = func(n parse.Node) {
		if n == nil {
			return
		}
		visit(n)
		switch n := n.(type) {
		case *parse.ListNode:
			if n != nil {
				for _, c := range n.Nodes {
					walk(c)
				}
			}
		case *parse.ActionNode:
			walk(n.Pipe)
		case *parse.PipeNode:
			if n != nil {
				for _, c := range n.Cmds {
					walk(c)
				}
			}
		case *parse.CommandNode:
			for _, a := range n.Args {
				walk(a)
			}
		case *parse.ChainNode:
			walk(n.Node)
		case *parse.IfNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.RangeNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.WithNode:
			walk(n.Pipe)
			walk(n.List)
			walk(n.ElseList)
		case *parse.TemplateNode:
			walk(n.Pipe)
		}
	}
	if tree != nil {
		walk(tree.Root)
	}
}

// aliasKeys copies params (keys lower-cased) and adds, for each
// mixed-case field name the templates use whose lower case is a key, that
// name too, at every depth: .Params.repoBase finds repobase, as in Hugo.
func (t *Templates) aliasKeys(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, e := range v {
			out[strings.ToLower(k)] = t.aliasKeys(e)
		}
		if t != nil {
			for name := range t.fields {
				if e, ok := out[strings.ToLower(name)]; ok {
					out[name] = e
				}
			}
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = t.aliasKeys(e)
		}
		return out
	}
	return v
}
