package agents

import "encoding/json"

// CatalogType is the media type of the API catalog (RFC 9727 section 4,
// RFC 9264), with RFC 9727's profile.
const CatalogType = `application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"`

// A Link is one target of a linkset relation.
type Link struct {
	Href string `json:"href"`
	Type string `json:"type,omitempty"`
}

// CatalogLinks are the targets of the one API a folio site publishes.
type CatalogLinks struct {
	Anchor      string // the API's base URL
	ServiceDesc Link   // the OpenAPI description
	ServiceDoc  Link   // the page for people
	Alternates  []Link // the feed, llms.txt
}

// Catalog is /.well-known/api-catalog: a linkset with one entry anchored
// at the API, pointing at its description, its documentation and its
// other machine-readable forms.
func Catalog(l CatalogLinks) []byte {
	entry := map[string]any{
		"anchor":       l.Anchor,
		"service-desc": []Link{l.ServiceDesc},
		"service-doc":  []Link{l.ServiceDoc},
	}
	if len(l.Alternates) > 0 {
		entry["alternate"] = l.Alternates
	}
	b, _ := json.MarshalIndent(map[string]any{"linkset": []any{entry}}, "", "  ")
	return append(b, '\n')
}
