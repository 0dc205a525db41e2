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
//
// The members are struct fields in the order of their names, which is
// the order encoding/json gives a map's keys: every article page has
// one, and a map with its keys sorted cost three times as much.
func BlogPosting(a Article) []byte {
	v := blogPosting{
		Context: "https://schema.org", Type: "BlogPosting",
		Description: a.Description,
		Encoding:    mediaObject{Type: "MediaObject", ContentURL: a.MarkdownURL, EncodingFormat: "text/markdown"},
		Headline:    a.Title, InLanguage: a.Language,
		IsPartOf:         named{Type: "Blog", Name: a.SiteName, URL: &a.SiteURL},
		MainEntityOfPage: a.URL, URL: a.URL,
	}
	if !a.Published.IsZero() {
		v.DatePublished = a.Published.UTC().Format(time.RFC3339)
		modified := a.Published
		if !a.Modified.IsZero() {
			modified = a.Modified
		}
		v.DateModified = modified.UTC().Format(time.RFC3339)
	}
	if a.Author != "" {
		v.Author = &named{Type: "Person", Name: a.Author}
	}
	if len(a.Tags) > 0 {
		v.Keywords = a.Tags
	}
	return mustJSON(v)
}

// blogPosting is BlogPosting's object, its members by name.
type blogPosting struct {
	Context          string      `json:"@context"`
	Type             string      `json:"@type"`
	Author           *named      `json:"author,omitempty"`
	DateModified     string      `json:"dateModified,omitempty"`
	DatePublished    string      `json:"datePublished,omitempty"`
	Description      string      `json:"description,omitempty"`
	Encoding         mediaObject `json:"encoding"`
	Headline         string      `json:"headline"`
	InLanguage       string      `json:"inLanguage,omitempty"`
	IsPartOf         named       `json:"isPartOf"`
	Keywords         []string    `json:"keywords,omitempty"`
	MainEntityOfPage string      `json:"mainEntityOfPage"`
	URL              string      `json:"url"`
}

type mediaObject struct {
	Type           string `json:"@type"`
	ContentURL     string `json:"contentUrl"`
	EncodingFormat string `json:"encodingFormat"`
}

// named is a Person (no url) or a Blog (its url, even when empty).
type named struct {
	Type string  `json:"@type"`
	Name string  `json:"name"`
	URL  *string `json:"url,omitempty"`
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
