package pipeline

import (
	"slices"
	"testing"
	"time"
)

// fields is what a parse test checks; dates are RFC 3339 in UTC, "" when
// zero.
type fields struct {
	Slug, Title, Description, Category string
	Tags                               []string
	Draft                              bool
	Date, Lastmod, Expiry              string
}

func fieldsOf(p *Post) fields {
	f := func(t time.Time) string {
		if t.IsZero() {
			return ""
		}
		return t.Format(time.RFC3339)
	}
	return fields{p.Slug, p.Title, p.Description, p.Category, p.Tags, p.Draft, f(p.Date), f(p.Lastmod), f(p.Expiry)}
}

func (a fields) equal(b fields) bool {
	return a.Slug == b.Slug && a.Title == b.Title && a.Description == b.Description &&
		a.Category == b.Category && slices.Equal(a.Tags, b.Tags) && a.Draft == b.Draft &&
		a.Date == b.Date && a.Lastmod == b.Lastmod && a.Expiry == b.Expiry
}

// base is what most cases expect: the file is "x.md" and its title "T".
func base(date string) fields {
	return fields{Slug: "x", Title: "T", Tags: []string{}, Date: date}
}

func with(f fields, edit func(*fields)) fields {
	edit(&f)
	return f
}

func TestParseFields(t *testing.T) {
	const d = "2024-03-05T10:00:00Z"
	tests := []struct {
		name string
		src  string
		want fields
	}{
		// Formats.
		{"yaml", "---\ntitle: Hello\ndescription: First.\ndate: 2024-03-05T10:00:00Z\ntags: [go, http]\ncategories: [notes]\n---\nBody\n",
			fields{Slug: "x", Title: "Hello", Description: "First.", Category: "notes", Tags: []string{"go", "http"}, Date: d}},
		{"toml", "+++\ntitle = \"Hello\"\ndate = 2024-03-05T10:00:00Z\ntags = [\"go\"]\ncategory = \"notes\"\n+++\nBody\n",
			fields{Slug: "x", Title: "Hello", Category: "notes", Tags: []string{"go"}, Date: d}},
		{"json", "{\n  \"title\": \"Hello\",\n  \"date\": \"2024-03-05T10:00:00Z\",\n  \"tags\": [\"go\"]\n}\nBody\n",
			fields{Slug: "x", Title: "Hello", Tags: []string{"go"}, Date: d}},
		{"yaml with BOM", "\ufeff---\ntitle: T\ndate: 2024-03-05T10:00:00Z\n---\nBody\n", base(d)},
		{"toml with BOM", "\ufeff+++\ntitle = 'T'\ndate = 2024-03-05T10:00:00Z\n+++\n", base(d)},
		{"yaml CRLF", "---\r\ntitle: T\r\ndate: 2024-03-05T10:00:00Z\r\ntags:\r\n  - go\r\n---\r\nBody\r\n",
			with(base(d), func(f *fields) { f.Tags = []string{"go"} })},
		{"toml CRLF", "+++\r\ntitle = 'T'\r\ndate = 2024-03-05T10:00:00Z\r\n+++\r\nBody\r\n", base(d)},
		{"json CRLF", "{\r\n\"title\": \"T\",\r\n\"date\": \"2024-03-05T10:00:00Z\"\r\n}\r\nBody\r\n", base(d)},

		// Hugo casts scalars to text: a number or a boolean is a title.
		{"number title", "---\ntitle: 123456\ndescription: 3.5\nslug: 42\ndate: 2024-03-05T10:00:00Z\n---\n",
			fields{Slug: "42", Title: "123456", Description: "3.5", Tags: []string{}, Date: d}},
		{"toml bool title", "+++\ntitle = true\ndate = 2024-03-05T10:00:00Z\n+++\n",
			with(base(d), func(f *fields) { f.Title = "true" })},

		// Date aliases: publishDate and its aliases win over date.
		{"publishDate", yamlPost("date: 2020-01-01", "publishDate: 2024-03-05T10:00:00Z"), base(d)},
		{"pubdate", yamlPost("date: 2020-01-01", "pubdate: 2024-03-05T10:00:00Z"), base(d)},
		{"published", yamlPost("date: 2020-01-01", "published: 2024-03-05T10:00:00Z"), base(d)},
		{"publishDate before pubdate", yamlPost("pubdate: 2020-01-01T00:00:00Z", "publishDate: 2024-03-05T10:00:00Z"), base(d)},
		{"publishDate alone", yamlPost("publishDate: 2024-03-05T10:00:00Z"), base(d)},
		{"lastmod", yamlPost("date: 2024-03-05T10:00:00Z", "lastmod: 2024-04-01T00:00:00Z"),
			with(base(d), func(f *fields) { f.Lastmod = "2024-04-01T00:00:00Z" })},
		{"modified", yamlPost("date: 2024-03-05T10:00:00Z", "modified: 2024-04-01T00:00:00Z"),
			with(base(d), func(f *fields) { f.Lastmod = "2024-04-01T00:00:00Z" })},
		{"expiryDate", yamlPost("date: 2024-03-05T10:00:00Z", "expiryDate: 2025-01-01T00:00:00Z"),
			with(base(d), func(f *fields) { f.Expiry = "2025-01-01T00:00:00Z" })},
		{"unpublishdate", yamlPost("date: 2024-03-05T10:00:00Z", "unpublishdate: 2025-01-01T00:00:00Z"),
			with(base(d), func(f *fields) { f.Expiry = "2025-01-01T00:00:00Z" })},

		// Keys are case-insensitive.
		{"mixed-case keys", "---\nTitle: Hello\nPublishDate: 2024-03-05T10:00:00Z\nTAGS: [go]\nDRAFT: true\nSlug: s\nCategory: notes\nDescription: D.\nLastMod: 2024-04-01T00:00:00Z\nExpiryDate: 2025-01-01T00:00:00Z\n---\n",
			fields{Slug: "s", Title: "Hello", Description: "D.", Category: "notes", Tags: []string{"go"}, Draft: true, Date: d, Lastmod: "2024-04-01T00:00:00Z", Expiry: "2025-01-01T00:00:00Z"}},
		{"mixed-case toml keys", "+++\nTITLE = 'Hello'\nDate = 2024-03-05T10:00:00Z\n+++\n",
			with(base(d), func(f *fields) { f.Title = "Hello" })},

		// Keys that differ only in case: lower case wins, else byte order,
		// never map order.
		{"lower-case key wins", "---\nTitle: Upper\ntitle: lower\nTITLE: caps\ndate: 2024-03-05T10:00:00Z\n---\n",
			with(base(d), func(f *fields) { f.Title = "lower" })},
		{"first mixed-case key in byte order", "---\nTitle: Upper\nTITLE: caps\ndate: 2024-03-05T10:00:00Z\n---\n",
			with(base(d), func(f *fields) { f.Title = "caps" })},

		// Dates: an offset is kept; without one, the configured zone (Paris).
		{"offset", yamlPost("date: 2024-03-05T15:00:00+05:00"), base(d)},
		{"no offset, winter", yamlPost("date: 2024-03-05T11:00:00"), base(d)},
		{"no offset, summer", yamlPost("date: 2024-07-01T10:00:00"), base("2024-07-01T08:00:00Z")},
		{"no seconds", yamlPost("date: 2024-07-01T10:00"), base("2024-07-01T08:00:00Z")},
		{"space separator", yamlPost("date: 2024-07-01 10:00:00"), base("2024-07-01T08:00:00Z")},
		{"date only", yamlPost("date: 2024-07-01"), base("2024-06-30T22:00:00Z")},
		{"quoted with offset", yamlPost(`date: "2024-03-05T10:00:00Z"`), base(d)},
		{"fraction truncated", yamlPost("date: 2024-03-05T10:00:00.999Z"), base(d)},
		{"toml offset", "+++\ntitle = 'T'\ndate = 2024-03-05T11:00:00+01:00\n+++\n", base(d)},
		{"toml local date-time", "+++\ntitle = 'T'\ndate = 2024-07-01T10:00:00\n+++\n", base("2024-07-01T08:00:00Z")},
		{"toml local date", "+++\ntitle = 'T'\ndate = 2024-07-01\n+++\n", base("2024-06-30T22:00:00Z")},
		{"toml string date", "+++\ntitle = 'T'\ndate = '2024-07-01'\n+++\n", base("2024-06-30T22:00:00Z")},
		{"json date only", "{\"title\": \"T\", \"date\": \"2024-07-01\"}\n", base("2024-06-30T22:00:00Z")},

		// Slugs.
		{"slug from front matter", yamlPost("date: 2024-03-05T10:00:00Z", "slug: hello-world"),
			with(base(d), func(f *fields) { f.Slug = "hello-world" })},
		{"slug trimmed", yamlPost("date: 2024-03-05T10:00:00Z", `slug: "  spaced "`),
			with(base(d), func(f *fields) { f.Slug = "spaced" })},
		{"non-ASCII slug", yamlPost("date: 2024-03-05T10:00:00Z", "slug: café-crème-日本"),
			with(base(d), func(f *fields) { f.Slug = "café-crème-日本" })},
		{"blank slug keeps the file name", yamlPost("date: 2024-03-05T10:00:00Z", `slug: ""`), base(d)},
		// Issue 15, finding 12: a control character has no escape a static
		// host matches; the slug takes Hugo's sanitised form.
		{"slug with a tab", yamlPost("date: 2024-03-05T10:00:00Z", `slug: "a\tb"`),
			with(base(d), func(f *fields) { f.Slug = "a-b" })},
		{"slug ending in a tab", yamlPost("date: 2024-03-05T10:00:00Z", `slug: "Tab\t"`),
			with(base(d), func(f *fields) { f.Slug = "Tab" })},
		{"slug with C0, C1 and a space", yamlPost("date: 2024-03-05T10:00:00Z", `slug: "c\x01d e\u0085f"`),
			with(base(d), func(f *fields) { f.Slug = "cd-e-f" })},
		{"no title falls back to the slug", "---\ndate: 2024-03-05T10:00:00Z\n---\n",
			with(base(d), func(f *fields) { f.Title = "x" })},

		// category, else the first non-empty categories entry.
		{"category wins", yamlPost("date: 2024-03-05T10:00:00Z", "category: essays", "categories: [notes]"),
			with(base(d), func(f *fields) { f.Category = "essays" })},
		{"first non-empty categories entry", yamlPost("date: 2024-03-05T10:00:00Z", `categories: ["", "  ", notes, essays]`),
			with(base(d), func(f *fields) { f.Category = "notes" })},
		{"categories as one string", yamlPost("date: 2024-03-05T10:00:00Z", "categories: notes"),
			with(base(d), func(f *fields) { f.Category = "notes" })},
		{"empty categories", yamlPost("date: 2024-03-05T10:00:00Z", "categories: []"), base(d)},
		{"blank category falls back", yamlPost("date: 2024-03-05T10:00:00Z", `category: ""`, "categories: [notes]"),
			with(base(d), func(f *fields) { f.Category = "notes" })},

		// description, else summary, else "".
		{"summary fallback", yamlPost("date: 2024-03-05T10:00:00Z", "summary: Short."),
			with(base(d), func(f *fields) { f.Description = "Short." })},
		{"description wins", yamlPost("date: 2024-03-05T10:00:00Z", "summary: Short.", "description: Long."),
			with(base(d), func(f *fields) { f.Description = "Long." })},

		// Tags.
		{"tags as one string", yamlPost("date: 2024-03-05T10:00:00Z", "tags: go"),
			with(base(d), func(f *fields) { f.Tags = []string{"go"} })},
		{"non-ASCII tags, blanks dropped", yamlPost("date: 2024-03-05T10:00:00Z", `tags: [écriture, 日本語, "", 2024]`),
			with(base(d), func(f *fields) { f.Tags = []string{"écriture", "日本語", "2024"} })},
		{"draft as a string", yamlPost("date: 2024-03-05T10:00:00Z", `draft: "true"`),
			with(base(d), func(f *fields) { f.Draft = true })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := parsePost("blog/x.md", []byte(tt.src), "x", paris(t))
			if err != nil {
				t.Fatalf("parsePost: %v", err)
			}
			if got := fieldsOf(p); !got.equal(tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
			if p.Tags == nil {
				t.Error("Tags is nil, want an empty list")
			}
		})
	}
}

// yamlPost is a YAML post with title T and exactly the given lines (no
// default date, unlike post).
func yamlPost(lines ...string) string {
	s := "---\ntitle: T\n"
	for _, l := range lines {
		s += l + "\n"
	}
	return s + "---\nBody.\n"
}

func TestParseKeepsUnknownKeys(t *testing.T) {
	src := "---\ntitle: T\ndate: 2024-03-05T10:00:00Z\nSeries: Go\naliases: [/old/, /older/]\nparams:\n  Mood: calm\n---\n"
	p, err := parsePost("blog/x.md", []byte(src), "x", time.UTC)
	if err != nil {
		t.Fatal(err)
	}
	if p.Params["series"] != "Go" {
		t.Errorf(`Params["series"] = %v, want "Go"`, p.Params["series"])
	}
	if _, ok := p.Params["params"].(map[string]any); !ok {
		t.Errorf(`Params["params"] = %#v, want a table`, p.Params["params"])
	}
	if !slices.Equal(p.Aliases, []string{"/old/", "/older/"}) {
		t.Errorf("Aliases = %q", p.Aliases)
	}
}
