package pipeline

import (
	"strings"
	"testing"
)

// TestConfigErrorMessages: each error names the file, the line of the key
// at fault (no line only when none can be found) and, for an unknown key
// that is a near miss of a known one, the key meant.
func TestConfigErrorMessages(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"unknown key with a near miss",
			"title = 'x'\n\ntitel = 'y'\n",
			`config.toml:3: unknown key titel (did you mean "title"?)`},
		{"near miss ignores case",
			"TITEL = 'y'\n",
			`config.toml:1: unknown key TITEL (did you mean "title"?)`},
		{"unknown key, nothing near",
			"colour = 'red'\n",
			`config.toml:1: unknown key colour`},
		{"too short to guess",
			"ab = 1\n",
			`config.toml:1: unknown key ab`},
		{"too far to guess: two edits in three letters",
			"arr = 1\n",
			`config.toml:1: unknown key arr`},
		{"top-level key after a table",
			"title = 'x'\n[cache]\nmaxAge = 60\ntitel = 'y'",
			`config.toml:4: unknown key cache.titel (did you mean "title"? it is a top-level key: write it above [cache])`},
		{"top-level key spelled right after a table",
			"[cache]\nmaxAge = 60\n\ndescription = 'd'\n",
			`config.toml:4: unknown key cache.description (description is a top-level key: write it above [cache])`},
		{"top-level key dotted under a table",
			"cache.title = 'x'\n",
			`config.toml:1: unknown key cache.title (title is a top-level key)`},
		{"table written as a key",
			"[cache]\nfeed = 1\n",
			`config.toml:2: unknown key cache.feed (feed is a table: give it its own [feed] section)`},
		{"byte order mark",
			"\ufefftitle = 'x'\n\ntitel = 1\n",
			`config.toml:3: unknown key titel (did you mean "title"?)`},
		{"table key at the top level",
			"pageSize = 10\n",
			`config.toml:1: unknown key pageSize (pageSize belongs in [api])`},
		{"table key misspelt at the top level",
			"pagesise = 10\n",
			`config.toml:1: unknown key pagesise (did you mean "pageSize"? it belongs in [api])`},
		{"unknown key in a table",
			"[feed]\nlimt = 3\n",
			`config.toml:2: unknown key feed.limt (did you mean "feed.limit"?)`},
		{"dotted key",
			"title = 'x'\nfeed.limt = 3\n",
			`config.toml:2: unknown key feed.limt (did you mean "feed.limit"?)`},
		{"unknown table names the table, not its keys",
			"[params]\nx = 1\ny.z = 2\n",
			`config.toml:1: unknown key params`},
		{"misspelt table",
			"[fed]\nlimit = 3\n",
			`config.toml:1: unknown key fed (did you mean "feed"?)`},
		{"quoted keys",
			"\"we ird\".k = 1\n[\"feed\"]\n'limt' = 2\n",
			`config.toml:1: unknown key "we ird".k; also unknown: feed.limt (line 3; did you mean "feed.limit"?)`},
		{"inline table",
			"feed = { limit = 3,\n  limt = 4 }\n",
			`config.toml:2: unknown key feed.limt (did you mean "feed.limit"?)`},
		{"array of tables, once",
			"[[arr]]\na = 1\n[[arr]]\nb = 2\n",
			`config.toml:1: unknown key arr`},
		{"several unknown keys, in file order",
			"colour = 'red'\n[api]\npagesize = 5\npageSise = 5\n[feed]\nlimt = 1\n",
			`config.toml:1: unknown key colour; also unknown: api.pageSise (line 4; did you mean "api.pageSize"?), feed.limt (line 6; did you mean "feed.limit"?)`},
		{"multi-line string does not hide keys",
			"description = '''\ntitel = 'not a key'\n'''\ntitel = 'y'\n",
			`config.toml:4: unknown key titel (did you mean "title"?)`},
		{"CRLF",
			"title = 'x'\r\n\r\ntitel = 'y'\r\n",
			`config.toml:3: unknown key titel (did you mean "title"?)`},
		{"wrong type",
			"[api]\n\npageSize = \"ten\"\n",
			`config.toml:3: api.pageSize: must be an integer, not a string`},
		{"wrong type, table for a string",
			"[title]\na = 1\n",
			`config.toml:1: title: must be a string, not a table`},
		{"wrong type, integer for a string",
			"title = 5\n",
			`config.toml:1: title: must be a string, not an integer`},
		{"wrong type, float for an integer",
			"[feed]\nlimit = 2.5\n",
			`config.toml:2: feed.limit: must be an integer, not a float`},
		{"wrong type, array for an integer",
			"[api]\npageSize = [1]\n",
			`config.toml:2: api.pageSize: must be an integer, not an array`},
		{"wrong type, string for a bool",
			"[markup]\nunsafe = 'yes'\n",
			`config.toml:2: markup.unsafe: must be a boolean, not a string`},
		{"syntax",
			"title = 'x'\ntitle = \n",
			`config.toml:2: expected value but found '\n' instead`},
		{"bad value",
			"title = 'x'\n[api]\npageSize = 0\n",
			`config.toml:3: api.pageSize 0 must be between 1 and 50`},
		{"bad value, key in other case",
			"\nBaseURL = 'example.org'\n",
			`config.toml:2: baseURL "example.org" must be an absolute http or https URL`},
		{"bad time zone",
			"timeZone = 'Mars/Olympus'\n",
			`config.toml:1: timeZone "Mars/Olympus": unknown time zone Mars/Olympus`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseConfig([]byte(tt.src), "config.toml")
			if err == nil {
				t.Fatal("no error")
			}
			if err.Error() != tt.want {
				t.Errorf("error:\n%s\nwant:\n%s", err, tt.want)
			}
		})
	}
}

func TestEditDistance(t *testing.T) {
	for _, tt := range []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"title", "title", 0},
		{"titel", "title", 1}, // a swap of neighbours is one edit
		{"tite", "title", 1},
		{"pagesise", "pagesize", 1},
		{"colour", "title", 6},
		{"", "abc", 3},
		{"été", "ete", 2}, // runes, not bytes
	} {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

// FuzzParseConfig: any config file gives a config or an error, never a
// panic, and an unknown-key error names a key.
func FuzzParseConfig(f *testing.F) {
	for _, s := range []string{
		"title = 'x'\ntitel = 'y'\n",
		"[cache]\nmaxAge = 1\ntitel = 'y'\n",
		"\"we ird\".k = 1\n[\"feed\"]\n'limt' = 2\n",
		"feed = { limit = 3,\n  limt = 4 }\n",
		"[[arr]]\na = 1\n[[arr]]\nb = [{c = 1}, {d = 2}]\n",
		"description = '''\ntitel = 1\n'''\n",
		"\ufefftitel = 1\n",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		_, err := ParseConfig([]byte(src), "config.toml")
		if err != nil && strings.Contains(err.Error(), "unknown key") && strings.HasSuffix(err.Error(), "unknown key ") {
			t.Errorf("error names no key: %q", err)
		}
	})
}
