package agents

import (
	"encoding/json"
	"time"
)

// An Article is what BlogPosting says of a post.
type Article struct {
	Title, Description, URL, MarkdownURL, Author, Language string
	Published, Modified                                    time.Time // zero when unknown
	Tags                                                   []string
	SiteName, SiteURL                                      string
}

// BlogPosting is the JSON-LD (schema.org) of an article page, with its
// Markdown twin as an encoding. It is safe inside a <script> element:
// encoding/json escapes <, > and &, so no field can close the element.
func BlogPosting(a Article) []byte {
	v := map[string]any{
		"@context":         "https://schema.org",
		"@type":            "BlogPosting",
		"headline":         a.Title,
		"url":              a.URL,
		"mainEntityOfPage": a.URL,
		"encoding": map[string]any{
			"@type":          "MediaObject",
			"encodingFormat": "text/markdown",
			"contentUrl":     a.MarkdownURL,
		},
		"isPartOf": map[string]any{"@type": "Blog", "name": a.SiteName, "url": a.SiteURL},
	}
	if a.Description != "" {
		v["description"] = a.Description
	}
	if !a.Published.IsZero() {
		v["datePublished"] = a.Published.UTC().Format(time.RFC3339)
		modified := a.Published
		if !a.Modified.IsZero() {
			modified = a.Modified
		}
		v["dateModified"] = modified.UTC().Format(time.RFC3339)
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
	return mustJSON(v)
}

// A Site is what WebSite and Blog say of the home page.
type Site struct {
	Name, Description, URL, Language, Author, Directory string
}

// WebSiteAndBlog is the home page's JSON-LD: the WebSite and the Blog it
// publishes, in one @graph.
func WebSiteAndBlog(s Site) []byte {
	website := map[string]any{"@type": "WebSite", "@id": s.URL + "#website", "name": s.Name, "url": s.URL}
	blog := map[string]any{"@type": "Blog", "@id": s.URL + "#blog", "name": s.Name, "url": s.Directory,
		"isPartOf": map[string]any{"@id": s.URL + "#website"}}
	for _, m := range []map[string]any{website, blog} {
		if s.Description != "" {
			m["description"] = s.Description
		}
		if s.Language != "" {
			m["inLanguage"] = s.Language
		}
	}
	if s.Author != "" {
		blog["author"] = map[string]any{"@type": "Person", "name": s.Author}
	}
	return mustJSON(map[string]any{"@context": "https://schema.org", "@graph": []any{website, blog}})
}

// mustJSON marshals a value made of maps, slices and strings, which
// cannot fail.
func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic("agents: " + err.Error())
	}
	return b
}
