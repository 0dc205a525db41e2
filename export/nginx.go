package export

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"net/url"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"text/template"
)

// NginxOptions say where the export is served from.
type NginxOptions struct {
	// Root is the output folder, absolute.
	Root string
	// Listen is the value of the listen directive ("80", "127.0.0.1:8080").
	Listen string
	// BaseURL is the site's base URL; its host is the server_name.
	BaseURL string
	// Self and Script are where the config and its njs script are written,
	// absolute.
	Self, Script string
	// NotFound is the path of the 404 page, which is no route of its own;
	// it must be one of the site's files.
	NotFound string
	// Refusals are the server's refusal rows, in table order: how a path
	// that names nothing is refused (problem or 404 page, CORS or not).
	Refusals []Refusal
}

// ScriptPath is where the njs script of the config conf goes: beside it,
// named like it with the extension .js (not .conf, so an include of
// conf.d/*.conf never reads it as config).
func ScriptPath(conf string) string {
	js := strings.TrimSuffix(conf, filepath.Ext(conf)) + ".js"
	if js == conf {
		js += ".js"
	}
	return js
}

var (
	//go:embed nginx.conf.tmpl
	confText string
	//go:embed folio.js.tmpl
	scriptText string

	confTmpl   = template.Must(template.New("nginx.conf").Parse(confText))
	scriptTmpl = template.Must(template.New("folio.js").Parse(scriptText))
)

// prefix starts every nginx variable and location the config defines.
const prefix = "folio"

// skipped are the headers nginx makes itself, or that describe one
// response's bytes rather than the representation. ETag and
// Last-Modified are the server's own, sent by the config (nginx's are
// turned off), so that a client revalidates against the same
// validators on either host.
var skipped = map[string]bool{
	"Content-Length": true, "Content-Encoding": true,
	"Date": true, "Accept-Ranges": true, "Connection": true, "Transfer-Encoding": true,
}

// Nginx returns the nginx config that serves site from opts.Root, and the
// njs script it loads from opts.Script.
func Nginx(site *Site, opts NginxOptions) (conf, script []byte, err error) {
	data, err := confData(site, opts)
	if err != nil {
		return nil, nil, err
	}
	var c, s bytes.Buffer
	if err := confTmpl.Execute(&c, data); err != nil {
		return nil, nil, fmt.Errorf("export: nginx config: %w", err)
	}
	answers, err := json.Marshal(jsAnswersOf(site.Dynamic))
	if err != nil {
		return nil, nil, fmt.Errorf("export: nginx script: %w", err)
	}
	js, err := json.Marshal(scriptData(data, opts))
	if err != nil {
		return nil, nil, fmt.Errorf("export: nginx script: %w", err)
	}
	if err := scriptTmpl.Execute(&s, map[string]any{"Root": opts.Root, "Answers": string(answers), "Site": string(js)}); err != nil {
		return nil, nil, fmt.Errorf("export: nginx script: %w", err)
	}
	return c.Bytes(), s.Bytes(), nil
}

// jsSite is what the njs script knows of the site besides the recorded
// answers: the refusal rows, the headers the config's maps hold (to
// answer 304 and 412 with a file's headers), and the output folder.
type jsSite struct {
	Refusals []Refusal  `json:"refusals"`
	Headers  [][]string `json:"headers"` // [name, variable]
	Root     string     `json:"root"`
}

func scriptData(v *confValues, opts NginxOptions) jsSite {
	d := jsSite{Refusals: opts.Refusals, Root: strings.TrimSuffix(opts.Root, "/")}
	if d.Refusals == nil {
		d.Refusals = []Refusal{}
	}
	for _, m := range v.Headers {
		d.Headers = append(d.Headers, []string{m.Name, prefix + "_h_" + m.Var})
	}
	return d
}

// entry is one line of a map: key and value, quoted for nginx. The key is
// made by a keyer: a quoted string, or a quoted regular expression.
type entry struct{ Key, Value string }

// headerMap is the map of one response header by key.
type headerMap struct {
	Name, Var, Default string
	Entries            []entry
}

type confValues struct {
	P, NS                       string
	Root, RootQ, Self, Script   string
	RootSlashQ                  string
	ScriptQ, Listen, ServerName string
	Extra, ExtraQ               string
	HashMax, HashBucket         int
	Routes, Markdown, Redirects []entry
	// Exact maps each path of Routes and Redirects to itself: nginx finds
	// a string key whatever the request's case, and the config answers
	// only when the key found is the request's path (see keyer).
	Exact   []entry
	Ranges  []entry
	Headers []headerMap
	// GzipETag is how the server's ETag of a gzip body is made from the
	// plain body's: the regular expression of the plain one and the
	// replacement, for the map that sends it with a .gz twin.
	GzipETagRegexp, GzipETagValue string
	// MalformedValid and MalformedAny are the quoted regular expressions
	// of Site.Malformed: paths matching Any but not Valid answer 400.
	MalformedValid, MalformedAny, MalformedRaw string
	// NotFoundFile is the 404 page's file, absolute and quoted, and
	// NotFoundKey the key of its headers, quoted for set.
	NotFoundFile, NotFoundKey string
	// PassAlias is the alias of the locations that serve a file njs has
	// passed: the output folder and the file's variable, quoted.
	PassAlias string
}

func confData(site *Site, opts NginxOptions) (*confValues, error) {
	site.fillHeaders()
	extra := strings.TrimSuffix(opts.Self, filepath.Ext(opts.Self)) + ".d"
	for _, p := range []string{opts.Root, opts.Script, extra} {
		if strings.ContainsAny(p, "$\"\\\n\r\t\x00;{}") || !filepath.IsAbs(p) {
			return nil, fmt.Errorf("export: nginx: path %q must be absolute and free of $ \" \\ ; { } and control characters", p)
		}
	}
	host := "_"
	if u, err := url.Parse(opts.BaseURL); err == nil && u.Hostname() != "" {
		host = u.Hostname()
	}
	v := &confValues{
		P: prefix, NS: prefix, Root: opts.Root, Self: opts.Self, Script: opts.Script,
		RootQ: quote(opts.Root), RootSlashQ: quote(strings.TrimSuffix(opts.Root, "/") + "/"), ScriptQ: quote(opts.Script), Listen: opts.Listen, ServerName: host,
		Extra: extra, ExtraQ: quote(extra + "/*.conf"),
		PassAlias: quote(strings.TrimSuffix(opts.Root, "/") + "${" + prefix + "_file}"),
	}
	if m := site.Malformed; m != nil {
		pre, suf := regexp.QuoteMeta(m.Prefix), regexp.QuoteMeta(m.Suffix)
		v.MalformedValid = quote("~^" + pre + "(?:" + m.Valid + ")" + suf + "$")
		v.MalformedAny = quote("~^" + pre + "[^/]*" + suf + "$")
		// nginx decodes %2F in $uri, where the server's token keeps the
		// slash (and refuses it): the raw request line tells them apart.
		v.MalformedRaw = quote("~^" + pre + "[^/?]*%2[Ff][^/?]*" + suf + "(\\?|$)")
	}
	keyed := map[string]http.Header{}               // header sets by map key
	var routes, markdown, redirects, ranges []entry // keys not yet quoted
	for _, f := range site.Files {
		if f.IsAliasPage() {
			continue // the 301 is the config's (site.Redirects)
		}
		p, file, err := decoded(f.Path, "/"+f.Name)
		if err != nil {
			return nil, err
		}
		if f.Path == opts.NotFound {
			// No route: the error page of every 404 that is not an API
			// path, served from its location with its own headers.
			if strings.Contains(file, "$") { // alias would read a variable
				return nil, fmt.Errorf("export: nginx: the 404 page's file %q must be free of $", file)
			}
			v.NotFoundFile = quote(strings.TrimSuffix(opts.Root, "/") + file)
			v.NotFoundKey = quoteValue("f:" + file)
			keyed["f:"+file] = f.Header
			continue
		}
		if f.Gzip && f.GzipETag != gzipETag(f.Header.Get("Etag")) {
			return nil, fmt.Errorf("export: nginx: %s: the server's ETag of the gzip body, %s, is not its plain ETag %s with -gz, which the config sends with the .gz twin", f.Path, f.GzipETag, f.Header.Get("Etag"))
		}
		routes = append(routes, entry{p, quoteValue(file)})
		keyed["f:"+file] = f.Header
		if f.Header.Get("Accept-Ranges") == "bytes" {
			ranges = append(ranges, entry{"f:" + file, ""})
		}
		if f.Markdown != "" {
			md, err := FileName(f.Markdown)
			if err != nil {
				return nil, err
			}
			markdown = append(markdown, entry{p, quoteValue("/" + md)})
			keyed["m:"+p] = f.MarkdownHeader
		}
	}
	// A static folder's index.html answers at its own URL too, with the
	// file and headers of its folder's route.
	files := map[string]string{}
	for _, e := range routes {
		files[e.Key] = e.Value
	}
	for _, x := range site.Indexes {
		p, _, err := decoded(x.Path, "")
		if err != nil {
			return nil, err
		}
		route, _, err := decoded(x.Route, "")
		if err != nil {
			return nil, err
		}
		if file, ok := files[route]; ok {
			routes = append(routes, entry{p, file})
		}
	}
	for _, r := range site.Redirects {
		p, _, err := decoded(r.Path, "")
		if err != nil {
			return nil, err
		}
		if _, dup := keyed["r:"+p]; dup {
			continue // two spellings of one path
		}
		redirects = append(redirects, entry{p, "1"})
		keyed["r:"+p] = r.Header
	}
	if v.NotFoundFile == "" {
		return nil, fmt.Errorf("export: nginx: the 404 page %q is not among the exported files", opts.NotFound)
	}
	v.setKeys(routes, markdown, redirects, ranges, keyed)
	v.HashMax, v.HashBucket = hashSizes(v)
	v.GzipETagRegexp, v.GzipETagValue = quote(`~^"(?<folio_tag>.*)"\z`), quote(`"${folio_tag}-gz"`)
	return v, nil
}

// gzipETag is the server's ETag of a representation's gzip body, made
// from its plain ETag (server/respond.go, etagOf): the config makes it
// the same way (GzipETagRegexp), and confData checks that every .gz twin
// the server answered has it.
func gzipETag(etag string) string {
	if len(etag) < 2 || !strings.HasSuffix(etag, `"`) {
		return ""
	}
	return strings.TrimSuffix(etag, `"`) + `-gz"`
}

// decoded is p as nginx's $uri holds it (percent-decoded), checked to be
// writable in the config.
func decoded(p, file string) (string, string, error) {
	d, err := url.PathUnescape(p)
	if err != nil {
		return "", "", fmt.Errorf("export: nginx: path %q: %w", p, err)
	}
	for _, s := range []string{d, file} {
		if strings.ContainsFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f }) {
			return "", "", fmt.Errorf("export: nginx: path %q has control characters nginx cannot match", p)
		}
	}
	return d, file, nil
}

// headerMaps makes one map per header name across all answers: the most
// common value is the default and only the others are listed.
func headerMaps(keyed map[string]http.Header, keyer keyer) []headerMap {
	names := map[string]bool{}
	for _, h := range keyed {
		for name := range h {
			if !skipped[http.CanonicalHeaderKey(name)] {
				names[http.CanonicalHeaderKey(name)] = true
			}
		}
	}
	keys := make([]string, 0, len(keyed))
	for k := range keyed {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var out []headerMap
	for _, name := range slices.Sorted(maps.Keys(names)) {
		values := make(map[string]string, len(keys))
		count := map[string]int{}
		for _, k := range keys {
			val := strings.Join(keyed[k].Values(name), ", ")
			values[k] = val
			count[val]++
		}
		def := mostCommon(count)
		m := headerMap{Name: name, Var: strings.ToLower(strings.ReplaceAll(name, "-", "_")), Default: quoteValue(def)}
		for _, k := range keys {
			if values[k] != def {
				m.Entries = append(m.Entries, entry{k, quoteValue(values[k])})
			}
		}
		m.Entries = keyer.keys(m.Entries)
		out = append(out, m)
	}
	return out
}

func mostCommon(count map[string]int) string {
	best, n := "", -1
	for _, v := range slices.Sorted(maps.Keys(count)) {
		if count[v] > n {
			best, n = v, count[v]
		}
	}
	return best
}

// hashSizes picks map_hash_max_size and map_hash_bucket_size big enough
// for the largest map and the longest key, so nginx builds every map's
// hash at its first try.
func hashSizes(v *confValues) (maxSize, bucket int) {
	longest, most := 0, max(len(v.Routes), len(v.Markdown), len(v.Redirects), len(v.Exact))
	for _, list := range [][]entry{v.Routes, v.Markdown, v.Redirects, v.Exact} {
		for _, e := range list {
			longest = max(longest, len(e.Key))
		}
	}
	for _, m := range v.Headers {
		most = max(most, len(m.Entries))
		for _, e := range m.Entries {
			longest = max(longest, len(e.Key))
		}
	}
	bucket = 128
	for bucket < longest+32 {
		bucket *= 2
	}
	return max(4096, 4*most), bucket
}

// quote writes s as an nginx string in double quotes.
func quote(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}

// quoteValue is quote for map values, where "$" would start a variable:
// it is written as the variable holding a dollar sign.
func quoteValue(s string) string {
	return strings.ReplaceAll(quote(s), "$", "${"+prefix+"_dollar}")
}

// jsAnswer is an Answer as the njs script reads it.
type jsAnswer struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	Body    string            `json:"body"`
}

type jsPair struct {
	CORS        jsAnswer  `json:"cors"`
	Plain       jsAnswer  `json:"plain"`
	Negotiating *jsAnswer `json:"negotiating"`
}

type jsAnswers struct {
	ProbePath           string    `json:"probePath"`
	ProbeMethod         string    `json:"probeMethod"`
	ProbeNegotiated     string    `json:"probeNegotiated"`
	ProbeRequestHeaders string    `json:"probeRequestHeaders"`
	Health              jsAnswer  `json:"health"`
	Malformed           *jsAnswer `json:"malformed"`
	Problem404          jsPair    `json:"problem404"`
	Method405           jsPair    `json:"method405"`
	Options             jsPair    `json:"options"`
	NotAcceptable406    *jsAnswer `json:"notAcceptable406"`
	Precondition412     *jsAnswer `json:"precondition412"`
}

func jsAnswersOf(d Dynamic) jsAnswers {
	a := jsAnswers{
		ProbePath: MarkPath, ProbeMethod: MarkMethod, ProbeNegotiated: MarkPath, ProbeRequestHeaders: MarkHeaders,
		Health:     jsAnswerOf(d.Health),
		Problem404: jsPairOf(d.Problem404),
		Method405:  jsPairOf(d.Method405),
		Options:    jsPairOf(d.Options),
	}
	if d.Malformed != nil {
		m := jsAnswerOf(*d.Malformed)
		a.Malformed = &m
	}
	if d.NotAcceptable406 != nil {
		n := jsAnswerOf(*d.NotAcceptable406)
		a.NotAcceptable406 = &n
	}
	if d.Precondition412 != nil {
		p := jsAnswerOf(*d.Precondition412)
		a.Precondition412 = &p
	}
	return a
}

func jsPairOf(p Pair) jsPair {
	j := jsPair{CORS: jsAnswerOf(p.CORS), Plain: jsAnswerOf(p.Plain)}
	if p.Negotiating != nil {
		n := jsAnswerOf(*p.Negotiating)
		j.Negotiating = &n
	}
	return j
}

func jsAnswerOf(a Answer) jsAnswer {
	h := map[string]string{}
	for name, vs := range a.Header {
		if !skipped[http.CanonicalHeaderKey(name)] {
			h[name] = strings.Join(vs, ", ")
		}
	}
	return jsAnswer{Status: a.Status, Headers: h, Body: a.Body}
}
