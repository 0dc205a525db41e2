package pipeline

import (
	"fmt"
	"net/url"
	"strconv"
	"time"
)

// A Post is one parsed Markdown file (or page bundle). Posts are immutable
// once built and are shared between snapshots: an edit produces a new Post,
// never a change to an old one.
type Post struct {
	// File is the path of the Markdown file inside the content FS, with
	// forward slashes ("blog/hello.md", "blog/trip/index.md").
	File string
	// Bundle is the bundle folder inside the content FS ("blog/trip") for
	// page bundles, "" for single-file posts.
	Bundle string
	// Resources are the bundle's other files, relative to Bundle, sorted:
	// the files published beside the page.
	Resources []string
	// ContentFiles are the bundle's content files other than index.md
	// (Markdown and Hugo's other content formats, at any depth, a nested
	// index.md included), relative to Bundle, sorted. Hugo makes them page
	// resources, which are never published: templates see them, no URL
	// serves them.
	ContentFiles []string

	Slug        string
	Title       string
	Description string // description, else summary, else Options.Describe's, else ""
	Category    string // category, else the first non-empty categories entry
	Tags        []string
	Categories  []string
	Aliases     []string
	Draft       bool

	// Date is the publish date: publishDate (or an alias), else date.
	Date time.Time
	// Lastmod is lastmod (alias modified); zero when unset.
	Lastmod time.Time
	// Expiry is expiryDate (alias unpublishdate); zero when unset.
	Expiry time.Time

	// Params holds every front-matter key, lower-cased, as decoded, while
	// the post is read. A post in a snapshot holds them encoded instead
	// (compact.go), so read them with FrontMatter or Param.
	Params map[string]any
	// frontMatter is Params encoded as the parse cache encodes them, once
	// the post is compacted; loc is the zone of its dates in the site's.
	frontMatter string
	loc         *time.Location

	// Body is the content after the front matter, split into text and
	// shortcode calls. BodyLine is the line of the file the body starts on.
	Body     []Node
	BodyLine int

	// PageMeta is where the file sits in the Hugo site (page.go). It is
	// never nil in a post folio reads or decodes; a Post made by hand
	// needs one (&PageMeta{}) before anything reads its fields. It is
	// held apart so that a Post stays under 512 bytes, the largest size
	// the collector scans span by span rather than object by object
	// (BENCHMARKS.md, "Session 32: serving heap").
	*PageMeta

	// Hash identifies the file's bytes (and, for bundles, the resource
	// list), so an unchanged file is recognised without re-parsing. It is
	// keyed per process: compare it only within one run.
	Hash uint64

	// noDate is the line of the front matter of a post without a date
	// (0 when it has one, or is not a post): it is published, with a
	// warning.
	noDate int
	// keyWarnings are the front matter's warnings (an Org keyword given
	// on several lines for a field that wants one value), their Path
	// unset.
	keyWarnings []Problem
	// urlLine is the line of the front matter key that sets the URL
	// (url, else slug), 0 when neither does (the file's name does);
	// aliasesLine the line of its aliases, 0 for none.
	urlLine, aliasesLine int
}

// URLLine is the line to change for p's URL, as a problem about it
// names: its front matter's url, else slug, else the file's first line
// (its name makes the URL).
func (p *Post) URLLine() int { return max(p.urlLine, 1) }

// AliasesLine is the line of p's aliases in its front matter (1 when it
// cannot tell).
func (p *Post) AliasesLine() int { return max(p.aliasesLine, 1) }

// Published reports Hugo's rule: not a draft, publish date not after now,
// and expiry date (when set) not before now.
func (p *Post) Published(now time.Time) bool {
	if p.Draft || p.Date.After(now) {
		return false
	}
	return p.Expiry.IsZero() || !p.Expiry.Before(now)
}

// Path is the site-relative URL path of the post's page, escaped
// ("blog/hello-world/").
func (p *Post) Path(section string) string {
	return section + "/" + url.PathEscape(p.Slug) + "/"
}

// MarkdownPath is the site-relative path of the post's Markdown alternate.
func (p *Post) MarkdownPath(section string) string {
	return section + "/" + url.PathEscape(p.Slug) + ".md"
}

// NodeKind tells the kinds of body nodes apart.
type NodeKind uint8

const (
	// TextNode is Markdown text.
	TextNode NodeKind = iota
	// ShortcodeNode is a {{< name … >}} or {{% name … %}} call.
	ShortcodeNode
	// MoreNode is the <!--more--> summary divider.
	MoreNode
)

// A Node is one piece of a post body.
type Node struct {
	Kind NodeKind
	Text string // TextNode: the Markdown
	Line int    // line in the file where the node starts

	// ShortcodeNode fields.
	Name       string
	Positional []string
	Named      map[string]string
	Inner      []Node
	HasInner   bool // written with a closing tag
	Markup     bool // {{% %}}: inner is Markdown
	// Params are the arguments typed as Hugo types them: a quoted value is
	// a string, a bare true or false a bool, a bare number an int or a
	// float64. []any for positional arguments, map[string]any for named
	// ones, nil when there are none.
	Params any
	// Indent is the white space before the opening tag when nothing else
	// precedes it on its line.
	Indent string
}

// Param returns the named parameter, else the positional one at index i
// (i < 0 for none), else "".
func (n *Node) Param(name string, i int) string {
	if v, ok := n.Named[name]; ok {
		return v
	}
	if i >= 0 && i < len(n.Positional) {
		return n.Positional[i]
	}
	return ""
}

// A Problem is something wrong in the content: the file, the line (1 when
// unknown; 0 when the problem is a folder's, which has no lines), a
// message and how serious it is. Problems never stop a build.
// An Error is what Hugo refuses (the file, or the part that failed, is
// left out); a Warning is what Hugo accepts and publishes (a shortcode
// whose template is nowhere, kept as its text), listed but not failing.
type Problem struct {
	Path     string   `json:"path"`
	Line     int      `json:"line"`
	Message  string   `json:"message"`
	Severity Severity `json:"severity,omitempty"`
}

// String is "path:line: message" ("path: message" for a folder), with
// "warning: " before the message of a warning.
func (p Problem) String() string {
	s := p.Path + ": "
	if p.Line > 0 {
		s = p.Path + ":" + strconv.Itoa(p.Line) + ": "
	}
	if p.Severity == Warning {
		s += "warning: "
	}
	return s + p.Message
}

// Severity tells errors from warnings. The zero value is Error, so a
// Problem made without one is an error, as every problem was before
// warnings existed.
type Severity uint8

const (
	// Error is a problem Hugo refuses: check and build fail on it.
	Error Severity = iota
	// Warning is a problem Hugo accepts: listed by check, shown by dev,
	// never failing a command.
	Warning
)

func (s Severity) String() string {
	if s == Warning {
		return "warning"
	}
	return "error"
}

// MarshalText writes "error" or "warning" (JSON leaves an error's out:
// the field is omitempty and Error is zero).
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads what MarshalText writes.
func (s *Severity) UnmarshalText(b []byte) error {
	switch string(b) {
	case "error":
		*s = Error
	case "warning":
		*s = Warning
	default:
		return fmt.Errorf("severity %q: want error or warning", b)
	}
	return nil
}

// Errors returns the problems that are errors, in order.
func Errors(ps []Problem) []Problem {
	var out []Problem
	for _, p := range ps {
		if p.Severity == Error {
			out = append(out, p)
		}
	}
	return out
}
