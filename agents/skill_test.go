package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v4"
)

func testSkillSite(title string) SkillSite {
	return SkillSite{
		Title: title, Description: "Notes.\n## Not a heading", Home: "https://example.org/",
		Posts: "https://example.org/api/posts.json", FirstPage: "https://example.org/api/posts/cursor/0.json",
		CursorPage: "https://example.org/api/posts/cursor/{cursor}.json", PageSize: 50,
		Feed: "https://example.org/rss.xml", LLMs: "https://example.org/llms.txt", LLMsFull: "https://example.org/llms-full.txt",
		OpenAPI: "https://example.org/openapi.json", Client: "https://example.org/sdk/blog-client.js",
		Directory: "https://example.org/blog/", ExamplePost: "https://example.org/blog/hello.md",
	}
}

// TestSkill: SKILL.md is valid Agent Skills (front matter with a name
// and a description of at most 1024 characters), uses the site's real
// URLs, and no title can add a line, heading or link to it.
func TestSkill(t *testing.T) {
	hostile := "Evil\n# Injected heading\n[click](https://evil.example) `code` <b>x</b> \"quotes\"\u2028"
	skill := string(Skill(testSkillSite(hostile)))
	front, body, ok := strings.Cut(strings.TrimPrefix(skill, "---\n"), "\n---\n")
	if !strings.HasPrefix(skill, "---\n") || !ok {
		t.Fatalf("no front matter:\n%s", skill)
	}
	var meta map[string]any
	if err := yaml.Unmarshal([]byte(front), &meta); err != nil {
		t.Fatalf("front matter: %v\n%s", err, front)
	}
	if meta["name"] != SkillName || len(meta) != 2 {
		t.Errorf("front matter %v", meta)
	}
	desc, _ := meta["description"].(string)
	if desc == "" || len(desc) > 1024 || strings.ContainsAny(desc, "\n\r") {
		t.Errorf("description %q", desc)
	}
	if !regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`).MatchString(SkillName) || len(SkillName) > 64 {
		t.Errorf("skill name %q is not an Agent Skills name", SkillName)
	}
	for _, line := range strings.Split(body, "\n") {
		if strings.Contains(line, "Injected") && strings.HasPrefix(line, "#") && !strings.HasPrefix(line, "# Searching") {
			t.Errorf("the title made a heading: %q", line)
		}
		if strings.Contains(line, "Not a heading") && strings.HasPrefix(line, "#") {
			t.Errorf("the description made a heading: %q", line)
		}
	}
	if strings.Contains(body, "[click](") || strings.Contains(body, "<b>") {
		t.Errorf("the title made a link or HTML:\n%s", body)
	}
	for _, u := range []string{"https://example.org/api/posts.json", "https://example.org/api/posts/cursor/0.json",
		"https://example.org/rss.xml", "https://example.org/llms.txt", "https://example.org/blog/hello.md", "search_blog_posts"} {
		if !strings.Contains(body, u) {
			t.Errorf("SKILL.md does not mention %s", u)
		}
	}
}

// TestSkillIndex: the index is Agent Skills Discovery 0.2.0 and its
// digest is the SHA-256 of the bytes given.
func TestSkillIndex(t *testing.T) {
	site := testSkillSite("Field Notes")
	skill := Skill(site)
	var index struct {
		Schema string `json:"$schema"`
		Skills []map[string]string
	}
	if err := json.Unmarshal(SkillIndex(site, "/.well-known/agent-skills/search-blog-posts/SKILL.md", skill), &index); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(skill)
	if index.Schema != SkillSchema || len(index.Skills) != 1 {
		t.Fatalf("index %+v", index)
	}
	s := index.Skills[0]
	if s["name"] != SkillName || s["type"] != "skill-md" || s["url"] != "/.well-known/agent-skills/search-blog-posts/SKILL.md" ||
		s["digest"] != "sha256:"+hex.EncodeToString(sum[:]) || s["description"] != SkillDescription(site) || len(s) != 5 {
		t.Errorf("skill entry %v", s)
	}
}

func TestCatalog(t *testing.T) {
	var set struct {
		Linkset []map[string]json.RawMessage
	}
	body := Catalog(CatalogLinks{
		Anchor:      "https://example.org/",
		ServiceDesc: Link{"https://example.org/openapi.json", "application/json"},
		ServiceDoc:  Link{"https://example.org/api/", "text/html"},
		Alternates:  []Link{{"https://example.org/rss.xml", "application/rss+xml"}, {"https://example.org/llms.txt", "text/plain"}},
	})
	if err := json.Unmarshal(body, &set); err != nil || len(set.Linkset) != 1 {
		t.Fatalf("%v: %s", err, body)
	}
	e := set.Linkset[0]
	var anchor string
	var desc, doc, alt []Link
	json.Unmarshal(e["anchor"], &anchor)
	json.Unmarshal(e["service-desc"], &desc)
	json.Unmarshal(e["service-doc"], &doc)
	json.Unmarshal(e["alternate"], &alt)
	if anchor != "https://example.org/" || len(desc) != 1 || desc[0].Type != "application/json" ||
		len(doc) != 1 || doc[0].Href != "https://example.org/api/" || len(alt) != 2 || alt[1].Type != "text/plain" {
		t.Errorf("linkset %s", body)
	}
}

// TestJSONLD: the documents are schema.org JSON, and no field can close
// the <script> element they sit in.
func TestJSONLD(t *testing.T) {
	a := Article{
		Title: "</script><script>alert(1)</script>", Description: "d & <x>", URL: "https://example.org/blog/x/",
		MarkdownURL: "https://example.org/blog/x.md", Author: "Me", Language: "en",
		Published: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("", 3600)), Tags: []string{"go"},
		SiteName: "Site", SiteURL: "https://example.org/",
	}
	for _, doc := range [][]byte{BlogPosting(a), WebSiteAndBlog(Site{Name: "</script>", URL: "https://example.org/", Directory: "https://example.org/blog/"})} {
		if strings.Contains(strings.ToLower(string(doc)), "</script") || strings.Contains(string(doc), "<") {
			t.Errorf("a field can end the script element: %s", doc)
		}
		var v map[string]any
		if err := json.Unmarshal(doc, &v); err != nil || v["@context"] != "https://schema.org" {
			t.Errorf("%v: %s", err, doc)
		}
	}
	var post map[string]any
	json.Unmarshal(BlogPosting(a), &post)
	enc, _ := post["encoding"].(map[string]any)
	if post["@type"] != "BlogPosting" || post["headline"] != a.Title || post["datePublished"] != "2026-01-02T02:04:05Z" ||
		post["dateModified"] != "2026-01-02T02:04:05Z" || enc["encodingFormat"] != "text/markdown" || enc["contentUrl"] != a.MarkdownURL {
		t.Errorf("BlogPosting %v", post)
	}
}

func TestEstimateTokens(t *testing.T) {
	for _, tc := range []struct {
		text string
		want int
	}{
		{"", 0},
		{" ", 1},
		{"hello world", 2},
		{"日本語", 4},
		{"Hello, world.\n", 4},
	} {
		if got := EstimateTokens([]byte(tc.text)); got != tc.want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", tc.text, got, tc.want)
		}
	}
}

// TestBlogPostingAsMap: BlogPosting writes the bytes encoding/json writes
// for the same members in a map (its keys sorted), whichever are present.
func TestBlogPostingAsMap(t *testing.T) {
	asMap := func(a Article) []byte {
		v := map[string]any{
			"@context": "https://schema.org", "@type": "BlogPosting",
			"headline": a.Title, "url": a.URL, "mainEntityOfPage": a.URL,
			"encoding": map[string]any{"@type": "MediaObject", "encodingFormat": "text/markdown", "contentUrl": a.MarkdownURL},
			"isPartOf": map[string]any{"@type": "Blog", "name": a.SiteName, "url": a.SiteURL},
		}
		if a.Description != "" {
			v["description"] = a.Description
		}
		if !a.Published.IsZero() {
			v["datePublished"] = a.Published.UTC().Format(time.RFC3339)
			m := a.Published
			if !a.Modified.IsZero() {
				m = a.Modified
			}
			v["dateModified"] = m.UTC().Format(time.RFC3339)
		}
		if a.Author != "" {
			v["author"] = map[string]any{"@type": "Person", "name": a.Author}
		}
		if len(a.Tags) > 0 {
			v["keywords"] = a.Tags
		}
		if a.Language != "" {
			v["inLanguage"] = a.Language
		}
		b, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	full := Article{Title: `"Hi" </script> & <b>`, Description: "d\u2028", URL: "https://example.org/a/?x=1&y=2", MarkdownURL: "https://example.org/a.md",
		Author: "Ann <a@b>", Language: "en", Published: time.Date(2026, 1, 2, 3, 4, 5, 0, time.FixedZone("x", 3600)),
		Modified: time.Date(2026, 2, 2, 0, 0, 0, 0, time.UTC), Tags: []string{"go", "日本語"}, SiteName: "S & Co", SiteURL: "https://example.org/"}
	for _, a := range []Article{
		full,
		{},
		{Title: "t", Published: full.Published},
		{Title: "t", Tags: []string{}, Modified: full.Modified},
	} {
		if got, want := BlogPosting(a), asMap(a); string(got) != string(want) {
			t.Errorf("BlogPosting(%+v)\n got %s\nwant %s", a, got, want)
		}
	}
}

// TestEstimateTokensCounts: the table-driven pass counts what a plain
// rune-by-rune classification counts, on Markdown, CJK, digits, runs of
// spaces, control characters and invalid UTF-8.
func TestEstimateTokensCounts(t *testing.T) {
	slow := func(text []byte) int {
		var c tokenCounts
		prev, spaces := rune(0), 0
		for i := 0; i < len(text); {
			r, size := utf8.DecodeRune(text[i:])
			i += size
			switch {
			case r == ' ':
				spaces++
				if spaces == 2 {
					c.spaceRuns++
				}
			case isASCIILetter(r):
				if !isASCIILetter(prev) {
					c.words++
				}
			case '0' <= r && r <= '9':
				if !('0' <= prev && prev <= '9') {
					c.digitRuns++
				}
			case r == '\n':
				c.newlines++
			case r < utf8.RuneSelf:
				if unicode.IsPunct(r) || unicode.IsSymbol(r) {
					c.punct++
				}
			case isCJK(r):
				c.cjk++
			default:
				c.other++
			}
			if r != ' ' {
				spaces = 0
			}
			prev = r
		}
		return c.estimate(len(text))
	}
	for _, text := range []string{
		"", " ", "  ", "a", "ab1 2  3\n\n", "# Title\n\n- [x](https://e.org/a?b=1) — 2026-01-02: done.\n",
		"日本語のテキストと English 混在 123abc", "tab\there\x00\x7f~`!@#$%^&*()", "bad \xff\xfe utf8 \xe6\x97", "é1é a1a 1a1",
		strings.Repeat("word  word\t1,2;3 ", 50),
	} {
		if got, want := EstimateTokens([]byte(text)), slow([]byte(text)); got != want {
			t.Errorf("EstimateTokens(%q) = %d, want %d", text, got, want)
		}
	}
}
