package agents

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strconv"
	"strings"
	"unicode"
)

// SkillName is the one skill a folio site publishes.
const SkillName = "search-blog-posts"

// SkillSchema is the $schema of an Agent Skills Discovery 0.2.0 index.
const SkillSchema = "https://schemas.agentskills.io/discovery/0.2.0/schema.json"

// SkillSite is what the skill teaches about one blog: its name and the
// absolute URLs of its machine-readable routes.
type SkillSite struct {
	Title       string
	Description string
	Home        string // the site's base URL
	Posts       string // /api/posts.json
	FirstPage   string // /api/posts/cursor/0.json
	CursorPage  string // the cursor URL with {cursor} for the token
	PageSize    int
	Feed        string // /rss.xml
	LLMs        string // /llms.txt
	LLMsFull    string // /llms-full.txt
	OpenAPI     string // /openapi.json
	Client      string // /sdk/blog-client.js
	Directory   string // the posts' directory page
	ExamplePost string // one post's markdownUrl, "" on an empty blog
}

// Skill is the SKILL.md of search-blog-posts (Agent Skills format: YAML
// front matter with name and description, then instructions) for site.
// Its title and description are escaped so that they stay in their line.
func Skill(s SkillSite) []byte {
	title := oneLine(s.Title)
	var b strings.Builder
	b.WriteString("---\n")
	b.WriteString("name: " + SkillName + "\n")
	b.WriteString("description: " + strconv.Quote(SkillDescription(s)) + "\n")
	b.WriteString("---\n\n")
	b.WriteString("# Searching and reading " + mdText(title) + "\n\n")
	if d := oneLine(s.Description); d != "" {
		b.WriteString(mdText(d) + "\n\n")
	}
	b.WriteString("This blog is a read-only HTTP service: no accounts, no keys, no rate-limited search\n")
	b.WriteString("endpoint. Every answer below is public, cacheable and the same for every client.\n\n")
	b.WriteString("## List every post\n\n")
	b.WriteString("GET " + s.Posts + " returns `{\"items\": [Post, …]}`, newest first. A Post has `slug`,\n")
	b.WriteString("`title`, `description`, `category` (may be absent), `tags` (an array), `date` (RFC 3339,\n")
	b.WriteString("UTC), `updated` (when edited), `url` (the page) and `markdownUrl` (the article as Markdown).\n\n")
	b.WriteString("## Page through posts\n\n")
	b.WriteString("GET " + s.FirstPage + " returns `{\"items\": [Post, …], \"nextCursor\": string|null}` with\n")
	b.WriteString("at most " + strconv.Itoa(s.PageSize) + " posts. While `nextCursor` is not null, GET\n")
	b.WriteString(s.CursorPage + " with the token in place of `{cursor}`. Cursors name a position,\n")
	b.WriteString("so posts published during the walk are neither skipped nor repeated.\n\n")
	b.WriteString("## Search\n\n")
	b.WriteString("The service has no search endpoint: search the list yourself. Split the query on white\n")
	b.WriteString("space and lower-case each term; keep a post when every term occurs in the lower-cased\n")
	b.WriteString("text made of its title, description, category and tags (leave out missing values).\n")
	b.WriteString("Keep the list's order. This is the rule the site's own search box and its WebMCP tool\n")
	b.WriteString("`search_blog_posts` (on " + s.Directory + ") use, and the JavaScript client\n")
	b.WriteString(s.Client + " exports it as `searchPosts(posts, query)`.\n\n")
	b.WriteString("## Read a post\n\n")
	b.WriteString("GET a post's `markdownUrl` for the article as Markdown (YAML front matter with title,\n")
	b.WriteString("description, date, tags and url, then the text). The page `url` with\n")
	b.WriteString("`Accept: text/markdown` returns the same bytes; the `x-markdown-tokens` header\n")
	b.WriteString("estimates its size in tokens.")
	if s.ExamplePost != "" {
		b.WriteString(" For example: " + s.ExamplePost + ".")
	}
	b.WriteString("\n\n")
	b.WriteString("## Follow the blog, or read it whole\n\n")
	b.WriteString("- RSS 2.0 feed of the newest posts: " + s.Feed + "\n")
	b.WriteString("- Index of every post for language models: " + s.LLMs + "\n")
	b.WriteString("- Every post's Markdown in one file (up to a size cap): " + s.LLMsFull + "\n")
	b.WriteString("- OpenAPI 3.1 description of every route: " + s.OpenAPI + "\n")
	return []byte(b.String())
}

// SkillDescription is the skill's one-line description, for its front
// matter and the discovery index.
func SkillDescription(s SkillSite) string {
	d := "List, page through, search and read the posts of the blog " + strconv.Quote(oneLine(s.Title)) +
		" (" + s.Home + ") through its read-only JSON API, Markdown articles, RSS feed and llms.txt."
	if len(d) > 1024 { // the format's limit
		d = d[:1021] + "..."
	}
	return d
}

// SkillIndex is /.well-known/agent-skills/index.json for the one skill
// served at url with the bytes skill: the digest is the SHA-256 of
// exactly the bytes served, uncompressed.
func SkillIndex(s SkillSite, url string, skill []byte) []byte {
	sum := sha256.Sum256(skill)
	index := map[string]any{
		"$schema": SkillSchema,
		"skills": []map[string]string{{
			"name":        SkillName,
			"type":        "skill-md",
			"description": SkillDescription(s),
			"url":         url,
			"digest":      "sha256:" + hex.EncodeToString(sum[:]),
		}},
	}
	b, _ := json.MarshalIndent(index, "", "  ")
	return append(b, '\n')
}

// oneLine folds line breaks and runs of white space into single spaces
// and drops other control characters.
func oneLine(s string) string {
	return strings.Join(strings.Fields(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)), " ")
}

// mdEscaper escapes the characters that could make text a heading, a
// link, emphasis, code or HTML in Markdown.
var mdEscaper = strings.NewReplacer(
	`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `<`, `\<`, `>`, `\>`,
	`#`, `\#`, `!`, `\!`, `|`, `\|`, `(`, `\(`, `)`, `\)`,
)

// mdText is text that Markdown shows as it is, on one line.
func mdText(s string) string { return mdEscaper.Replace(oneLine(s)) }
