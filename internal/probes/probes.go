package probes

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"encoding/xml"
	"io"
	"mime"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"go.yaml.in/yaml/v4"
)

// A Site is a folio site being probed.
type Site struct {
	// Base is where the site answers ("http://127.0.0.1:8080/").
	Base string
	// Emitted is the base URL its bodies and headers are written with
	// (the configured baseURL), when it differs from Base: URLs under it
	// are fetched from Base.
	Emitted string
	// Client sends the requests; nil is a client that follows no
	// redirects and leaves compression to the transport.
	Client *http.Client
	// MaxPages bounds the sitemap walk (0: every page).
	MaxPages int
	// OwnRobots says the site serves its own robots.txt (static/), which
	// need only be a valid one: the AI crawler groups, signals and
	// sitemap line are the author's business then.
	OwnRobots bool
}

// AICrawlers are the crawlers the readiness probes look for in
// robots.txt; each must have a group of its own.
var AICrawlers = []string{"GPTBot", "OAI-SearchBot", "ChatGPT-User", "ClaudeBot", "Claude-User", "Claude-SearchBot",
	"Google-Extended", "PerplexityBot", "CCBot", "Applebot-Extended", "Meta-ExternalAgent", "Amazonbot", "Bytespider"}

// Check runs every probe against s, each as a subtest.
func Check(t *testing.T, s Site) {
	t.Helper()
	if s.Client == nil {
		s.Client = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	}
	t.Run("robots.txt", s.robots)
	t.Run("Link headers on /", s.homeLinks)
	t.Run("Markdown for /", s.homeMarkdown)
	t.Run("API catalog", s.catalog)
	t.Run("Agent Skills", s.skills)
	t.Run("a twin for every page", s.twins)
}

// An answer is a response with its body read.
type answer struct {
	*http.Response
	body []byte
}

// get fetches u (a URL the site emitted, or a path under Base) with the
// header pairs given.
func (s Site) get(t *testing.T, method, u string, header ...string) answer {
	t.Helper()
	req, err := http.NewRequest(method, s.local(u), nil)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := s.Client.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s %s: %v", method, u, err)
	}
	return answer{resp, body}
}

// local is where to fetch a URL: a path resolves against Base, and a URL
// under Emitted is moved under Base.
func (s Site) local(u string) string {
	if s.Emitted != "" && strings.HasPrefix(u, s.Emitted) {
		return s.Base + strings.TrimPrefix(u, s.Emitted)
	}
	if !strings.Contains(u, "://") {
		return s.Base + strings.TrimPrefix(u, "/")
	}
	return u
}

// mediaType is a Content-Type without its parameters.
func mediaType(a answer) string {
	mt, _, _ := mime.ParseMediaType(a.Header.Get("Content-Type"))
	return mt
}

func varies(a answer, name string) bool {
	for _, v := range a.Header.Values("Vary") {
		for _, f := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(f), name) {
				return true
			}
		}
	}
	return false
}

var signalSyntax = regexp.MustCompile(`^(search|ai-input|ai-train)=(yes|no)(, ?(search|ai-input|ai-train)=(yes|no))*$`)

func (s Site) robots(t *testing.T) {
	a := s.get(t, "GET", "robots.txt")
	if a.StatusCode != 200 || mediaType(a) != "text/plain" {
		t.Fatalf("robots.txt: %d %s", a.StatusCode, a.Header.Get("Content-Type"))
	}
	f, err := ParseRobots(string(a.body))
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Other) > 0 {
		t.Errorf("robots.txt lines that are not RFC 9309 records: %q", f.Other)
	}
	if s.OwnRobots {
		return
	}
	star := f.Group("*")
	if star == nil || !star.Allowed("/") {
		t.Errorf("robots.txt: no User-agent: * group allowing /")
	}
	for _, c := range AICrawlers {
		g := f.Group(c)
		if g == nil || g == star {
			t.Errorf("robots.txt: no group for %s", c)
		}
	}
	for _, g := range f.Groups {
		sig := g.Records["content-signal"]
		if len(sig) != 1 || !signalSyntax.MatchString(sig[0]) {
			t.Errorf("robots.txt group %q: Content-Signal %q", g.Agents, sig)
		}
	}
	if len(f.Sitemaps) != 1 {
		t.Fatalf("robots.txt: %d Sitemap lines, want 1", len(f.Sitemaps))
	}
	if u, err := url.Parse(f.Sitemaps[0]); err != nil || !u.IsAbs() {
		t.Errorf("robots.txt: Sitemap %q is not an absolute URL", f.Sitemaps[0])
	}
	sm := s.get(t, "GET", f.Sitemaps[0])
	if sm.StatusCode != 200 || !strings.HasSuffix(mediaType(sm), "xml") || !xmlValid(sm.body) {
		t.Errorf("the sitemap robots.txt names: %d %s", sm.StatusCode, sm.Header.Get("Content-Type"))
	}
}

func xmlValid(b []byte) bool {
	d := xml.NewDecoder(strings.NewReader(string(b)))
	for {
		_, err := d.Token()
		if err == io.EOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// homeLinks: HEAD / carries Link with api-catalog, service-desc and the
// Markdown alternate; each target answers with the type it advertises.
// home fetches / as a probe does, following redirects (a multilingual
// site's / sends to its default language's home).
func (s Site) home(t *testing.T, method string, header ...string) answer {
	t.Helper()
	u := ""
	for range 5 {
		a := s.get(t, method, u, header...)
		loc := a.Header.Get("Location")
		if a.StatusCode/100 != 3 || loc == "" {
			return a
		}
		u = loc
	}
	t.Fatalf("/: more than 5 redirects")
	return answer{}
}

func (s Site) homeLinks(t *testing.T) {
	a := s.home(t, "HEAD")
	links, err := ParseLinks(a.Header.Values("Link"))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"api-catalog": "application/linkset+json", "service-desc": "application/json", "alternate": "text/markdown"}
	for rel, typ := range want {
		i := slices.IndexFunc(links, func(l Link) bool { return l.Rel(rel) })
		if i < 0 {
			t.Errorf("HEAD /: no Link with rel=%s in %q", rel, a.Header.Values("Link"))
			continue
		}
		l := links[i]
		if adv := l.Params["type"]; adv != "" && adv != typ {
			t.Errorf("rel=%s advertises type %q, want %q", rel, adv, typ)
		}
		got := s.get(t, "GET", l.Target, "Accept", typ)
		if got.StatusCode != 200 || mediaType(got) != typ {
			t.Errorf("rel=%s target %s: %d %s, want 200 %s", rel, l.Target, got.StatusCode, got.Header.Get("Content-Type"), typ)
		}
	}
}

func (s Site) homeMarkdown(t *testing.T) {
	a := s.home(t, "GET", "Accept", "text/markdown")
	s.checkTwin(t, "/", a)
}

// checkTwin asks what an agent needs of a Markdown answer: its type,
// Vary: Accept when negotiated, a token count and front matter with
// title, description and url.
func (s Site) checkTwin(t *testing.T, page string, a answer) map[string]any {
	t.Helper()
	if a.StatusCode != 200 || mediaType(a) != "text/markdown" {
		t.Errorf("%s as Markdown: %d %s", page, a.StatusCode, a.Header.Get("Content-Type"))
		return nil
	}
	if !varies(a, "Accept") {
		t.Errorf("%s as Markdown: Vary %q lacks Accept", page, a.Header.Values("Vary"))
	}
	if n, err := strconv.Atoi(a.Header.Get("X-Markdown-Tokens")); err != nil || n <= 0 {
		t.Errorf("%s as Markdown: x-markdown-tokens %q", page, a.Header.Get("X-Markdown-Tokens"))
	}
	if !signalSyntax.MatchString(a.Header.Get("Content-Signal")) {
		t.Errorf("%s as Markdown: Content-Signal %q", page, a.Header.Get("Content-Signal"))
	}
	front, ok := frontMatter(a.body)
	if !ok {
		t.Errorf("%s as Markdown: no YAML front matter:\n%.300s", page, a.body)
		return nil
	}
	for _, k := range []string{"title", "description", "url"} {
		if _, ok := front[k].(string); !ok {
			t.Errorf("%s as Markdown: front matter has no %s: %v", page, k, front)
		}
	}
	return front
}

// frontMatter parses the YAML block a Markdown document opens with.
func frontMatter(b []byte) (map[string]any, bool) {
	rest, ok := strings.CutPrefix(string(b), "---\n")
	if !ok {
		return nil, false
	}
	block, _, ok := strings.Cut(rest, "\n---\n")
	if !ok {
		return nil, false
	}
	var m map[string]any
	if yaml.Unmarshal([]byte(block), &m) != nil {
		return nil, false
	}
	return m, true
}

func (s Site) catalog(t *testing.T) {
	a := s.get(t, "GET", ".well-known/api-catalog")
	if a.StatusCode != 200 || mediaType(a) != "application/linkset+json" {
		t.Fatalf("api-catalog: %d %s", a.StatusCode, a.Header.Get("Content-Type"))
	}
	var set struct {
		Linkset []map[string]json.RawMessage
	}
	if err := json.Unmarshal(a.body, &set); err != nil || len(set.Linkset) == 0 {
		t.Fatalf("api-catalog is not a linkset (RFC 9264): %v %s", err, a.body)
	}
	for _, entry := range set.Linkset {
		var anchor string
		if json.Unmarshal(entry["anchor"], &anchor) != nil || anchor == "" {
			t.Errorf("linkset entry without anchor: %v", entry)
		}
		for _, rel := range []string{"service-desc", "service-doc"} {
			var targets []struct{ Href, Type string }
			if json.Unmarshal(entry[rel], &targets) != nil || len(targets) == 0 {
				t.Errorf("linkset entry has no %s", rel)
				continue
			}
			for _, tg := range targets {
				got := s.get(t, "GET", tg.Href, "Accept", tg.Type)
				if got.StatusCode != 200 || tg.Type != "" && mediaType(got) != tg.Type {
					t.Errorf("%s %s: %d %s, want %s", rel, tg.Href, got.StatusCode, got.Header.Get("Content-Type"), tg.Type)
				}
			}
		}
	}
}

func (s Site) skills(t *testing.T) {
	index := s.get(t, "GET", ".well-known/agent-skills/index.json")
	if index.StatusCode != 200 || mediaType(index) != "application/json" {
		t.Fatalf("agent-skills index: %d %s", index.StatusCode, index.Header.Get("Content-Type"))
	}
	var idx struct {
		Schema string `json:"$schema"`
		Skills []struct{ Name, Type, Description, URL, Digest string }
	}
	if err := json.Unmarshal(index.body, &idx); err != nil {
		t.Fatal(err)
	}
	if idx.Schema != "https://schemas.agentskills.io/discovery/0.2.0/schema.json" || len(idx.Skills) == 0 {
		t.Fatalf("index: $schema %q, %d skills", idx.Schema, len(idx.Skills))
	}
	name := regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)
	indexURL, _ := url.Parse(s.local(".well-known/agent-skills/index.json"))
	for _, sk := range idx.Skills {
		if !name.MatchString(sk.Name) || len(sk.Name) > 64 || sk.Type != "skill-md" || sk.Description == "" || len(sk.Description) > 1024 {
			t.Errorf("skill entry %+v", sk)
		}
		ref, err := url.Parse(sk.URL)
		if err != nil {
			t.Errorf("skill %s: url %q: %v", sk.Name, sk.URL, err)
			continue
		}
		md := s.get(t, "GET", indexURL.ResolveReference(ref).String())
		sum := sha256.Sum256(md.body)
		if md.StatusCode != 200 || sk.Digest != "sha256:"+hex.EncodeToString(sum[:]) {
			t.Errorf("skill %s: %d, digest %s, the bytes served hash to %x", sk.Name, md.StatusCode, sk.Digest, sum)
		}
		front, ok := frontMatter(md.body)
		if !ok || front["name"] != sk.Name || front["description"] == "" {
			t.Errorf("skill %s: SKILL.md front matter %v", sk.Name, front)
		}
	}
}

// twins walks the sitemap (and its children when it is an index): each
// page's HTML links its twin, in the head and in a Link header, and
// Accept: text/markdown gets the twin's bytes.
func (s Site) twins(t *testing.T) {
	pages := s.sitemapPages(t, "sitemap.xml", 0)
	if len(pages) == 0 {
		t.Fatal("the sitemap lists no page")
	}
	if s.MaxPages > 0 && len(pages) > s.MaxPages {
		pages = pages[:s.MaxPages]
	}
	alternate := regexp.MustCompile(`<link rel="alternate" type="text/markdown" href="([^"]+)">`)
	for _, page := range pages {
		html := s.get(t, "GET", page)
		m := alternate.FindSubmatch(html.body)
		if html.StatusCode != 200 || m == nil {
			t.Errorf("%s: %d, no Markdown alternate in its head", page, html.StatusCode)
			continue
		}
		twinURL := string(m[1])
		links, err := ParseLinks(html.Header.Values("Link"))
		if err != nil || !slices.ContainsFunc(links, func(l Link) bool {
			return l.Rel("alternate") && l.Target == twinURL && l.Params["type"] == "text/markdown"
		}) {
			t.Errorf("%s: Link %q does not name its twin %s (%v)", page, html.Header.Values("Link"), twinURL, err)
		}
		neg := s.get(t, "GET", page, "Accept", "text/markdown")
		front := s.checkTwin(t, page, neg)
		if front != nil && front["url"] != page {
			t.Errorf("%s: twin's url is %v", page, front["url"])
		}
		if direct := s.get(t, "GET", twinURL); string(direct.body) != string(neg.body) {
			t.Errorf("%s: the negotiated twin differs from %s", page, twinURL)
		}
	}
}

// sitemapPages reads the URLs a sitemap lists, following a sitemap index.
func (s Site) sitemapPages(t *testing.T, u string, depth int) []string {
	a := s.get(t, "GET", u)
	var doc struct {
		XMLName  xml.Name
		URLs     []string `xml:"url>loc"`
		Sitemaps []string `xml:"sitemap>loc"`
	}
	if a.StatusCode != 200 || xml.Unmarshal(a.body, &doc) != nil {
		t.Fatalf("%s: %d, not a sitemap", u, a.StatusCode)
	}
	pages := doc.URLs
	for _, child := range doc.Sitemaps {
		if depth > 0 {
			t.Fatalf("%s: a sitemap index inside an index", u)
		}
		pages = append(pages, s.sitemapPages(t, child, depth+1)...)
	}
	return pages
}
