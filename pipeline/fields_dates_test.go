package pipeline

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"folio/internal/hugotest"
)

// TestDateLayouts: front matter dates in the shapes Hugo 0.165 reads, each
// the instant Hugo gives it (printed by a Hugo build of one post per
// shape, the time zone UTC). Fansesi's blog writes "2023-04-06
// 00:00:00+0000", which folio refused.
func TestDateLayouts(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"2023-04-06 00:00:00+0000", "2023-04-06T00:00:00Z"},
		{"2023-04-06 01:02:03 -07:00", "2023-04-06T08:02:03Z"},
		{"2023-04-06 01:02:03 -0700", "2023-04-06T08:02:03Z"},
		{"Thu Apr 06 01:02:03 -0700 2023", "2023-04-06T08:02:03Z"},
		{"2023-04-06 01:02:03.5 +0000 UTC", "2023-04-06T01:02:03Z"},
		{"2023-04-06 01:02:03Z", "2023-04-06T01:02:03Z"},
		{"2023-04-06T01:02:03.123456789", "2023-04-06T01:02:03Z"},
		{"Thu Apr  6 01:02:03 2023", "2023-04-06T01:02:03Z"},
		{"Thu Apr  6 01:02:03 UTC 2023", "2023-04-06T01:02:03Z"},
		{"Thursday, 06-Apr-23 01:02:03 UTC", "2023-04-06T01:02:03Z"},
		{"2023-04-06T01:02:03+0100", "2023-04-06T00:02:03Z"},
		{"Thu, 06 Apr 2023 01:02:03 +0100", "2023-04-06T00:02:03Z"},
		{"06 Apr 23 01:02 +0100", "2023-04-06T00:02:00Z"},
		{"06 Apr 2023", "2023-04-06T00:00:00Z"},
	} {
		got, err := toTime(tc.in, time.UTC)
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if s := got.UTC().Truncate(time.Second).Format(time.RFC3339); s != tc.want {
			t.Errorf("%q = %s, want %s (Hugo's)", tc.in, s, tc.want)
		}
	}
}

// TestDateZonesAsHugo: a date whose zone is only named (Unix date,
// RFC 1123, RFC 822, RFC 850) is read by Hugo 0.165 as the wall time in
// the site's time zone, whatever the name says, where a numeric offset
// is obeyed (review 31 item 24: folio read "PST" as Go's fabricated
// zero-offset zone). Hugo builds one post per shape with timeZone
// Europe/Paris and prints each date.
func TestDateZonesAsHugo(t *testing.T) {
	hugotest.Binary(t)
	shapes := []string{
		"Mon Jan  2 15:04:05 PST 2023",
		"Mon Jan  2 15:04:05 UTC 2023",
		"Mon Jul  3 15:04:05 CET 2023",
		"Mon, 02 Jan 2023 15:04:05 GMT",
		"Mon, 02 Jan 2023 15:04:05 EST",
		"02 Jan 23 15:04 PST",
		"03 Jul 23 15:04 CEST",
		"Monday, 02-Jan-23 15:04:05 PST",
		"2023-01-02 15:04:05.5 -0700 MST",
		"Mon Jan 02 15:04:05 -0700 2023",
		"Mon Jan  2 15:04:05 2023",
		"2023-01-02 15:04:05 -07:00",
	}
	site := t.TempDir()
	files := map[string]string{
		"hugo.toml":                    "baseURL = 'https://example.org/'\ntitle = 'S'\ntimeZone = 'Europe/Paris'\n",
		"layouts/_default/single.html": `{{ .Date.UTC.Format "2006-01-02T15:04:05Z07:00" }}`,
		"layouts/_default/list.html":   "{{ .Title }}",
	}
	for i, s := range shapes {
		files[fmt.Sprintf("content/posts/d%d.md", i)] = fmt.Sprintf("---\ntitle: d%d\ndate: %q\n---\nBody.\n", i, s)
	}
	for name, data := range files {
		if err := os.MkdirAll(filepath.Join(site, filepath.Dir(name)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(site, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	out := filepath.Join(site, "public")
	hugotest.Build(t, site, "--destination", out)
	loc, err := time.LoadLocation("Europe/Paris")
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range shapes {
		want, err := os.ReadFile(filepath.Join(out, "posts", fmt.Sprintf("d%d", i), "index.html"))
		if err != nil {
			t.Fatalf("%q: Hugo wrote no page: %v", s, err)
		}
		got, err := toTime(s, loc)
		if err != nil {
			t.Errorf("%q: %v", s, err)
			continue
		}
		if g := got.UTC().Format(time.RFC3339); g != strings.TrimSpace(string(want)) {
			t.Errorf("%q = %s, Hugo %s", s, g, want)
		}
	}
}
