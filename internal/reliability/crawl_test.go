package reliability

import (
	"encoding/json"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// seeds are where a crawl starts: every route of the contract that does
// not depend on a post, and the export's 404 page.
var seeds = []string{
	"/", "/blog/", "/blog", "/blog.md", "/api/posts.json", "/api/posts/cursor/0.json",
	"/openapi.json", "/rss.xml", "/llms.txt", "/sitemap.xml", "/sdk/blog-client.js",
	"/healthz", "/404.html", "/robots.txt", "/favicon.ico",
}

// maxCrawl bounds a crawl; the fixture has a few dozen URLs.
const maxCrawl = 3000

// A crawl is every URL reached from the seeds by following every link
// found in any answer, each asked for in every variant.
type crawl struct {
	order   []string
	answers map[string]map[string]answer // path → variant → answer
}

func crawlSite(t *testing.T, h http.Handler, extra ...string) *crawl {
	t.Helper()
	c := &crawl{answers: map[string]map[string]answer{}}
	queue := append(slices.Clone(seeds), extra...)
	for len(queue) > 0 {
		p := queue[0]
		queue = queue[1:]
		if _, seen := c.answers[p]; seen {
			continue
		}
		if len(c.order) >= maxCrawl {
			t.Fatalf("crawl passed %d URLs; links are not converging: %q", maxCrawl, c.order[len(c.order)-20:])
		}
		c.order = append(c.order, p)
		c.answers[p] = map[string]answer{}
		for _, v := range variants {
			a := ask(t, h, v.method, p, v.header)
			c.answers[p][v.name] = a
			queue = append(queue, links(p, a)...)
		}
	}
	return c
}

var (
	absURL   = regexp.MustCompile(`https?://[^\s"'<>()\[\]\\` + "`" + `]+`)
	attrURL  = regexp.MustCompile(`(?i)(?:href|src|action)\s*=\s*["']([^"']*)["']`)
	mdURL    = regexp.MustCompile(`\]\(\s*<?([^)\s>]+)`)
	rootPath = regexp.MustCompile("[\"'`](/[^\"'`\\s<>]*)[\"'`]")
	locTag   = regexp.MustCompile(`<(?:loc|link|guid)>([^<]+)</`)
)

// links lists the site paths an answer names: absolute URLs on the base
// URL's host, href/src attributes, Markdown link targets, quoted root
// paths (the JavaScript client, the OpenAPI paths), XML <loc>/<link>/<guid>,
// Location and Link headers, and the next cursor of a cursor page.
func links(from string, a answer) []string {
	page, _ := url.Parse(base)
	if rel, err := url.Parse(from); err == nil {
		page = page.ResolveReference(rel)
	}
	body := string(a.plain)
	var refs []string
	refs = append(refs, absURL.FindAllString(body, -1)...)
	for _, re := range []*regexp.Regexp{attrURL, mdURL, rootPath, locTag} {
		for _, m := range re.FindAllStringSubmatch(body, -1) {
			refs = append(refs, m[1])
		}
	}
	for _, k := range []string{"Location", "Link", "Content-Location"} {
		for _, v := range a.header.Values(k) {
			refs = append(refs, strings.Trim(strings.SplitN(v, ";", 2)[0], "<> "))
		}
	}
	var page0 struct {
		NextCursor *string `json:"nextCursor"`
	}
	if json.Unmarshal(a.plain, &page0) == nil && page0.NextCursor != nil {
		refs = append(refs, "/api/posts/cursor/"+*page0.NextCursor+".json")
	}
	var out []string
	for _, ref := range refs {
		ref = strings.ReplaceAll(ref, "&amp;", "&")
		u, err := page.Parse(strings.TrimSpace(ref))
		if err != nil || u.Host != page.Host || (u.Scheme != "http" && u.Scheme != "https") {
			continue
		}
		if p := u.EscapedPath(); p != "" {
			out = append(out, p)
		}
	}
	return out
}
