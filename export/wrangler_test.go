package export

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestWranglerConfigKeepsTheAuthors: a later build rewrites folio's keys
// where they stand and adds the missing ones at the end; every other key
// and every comment stays byte for byte.
func TestWranglerConfigKeepsTheAuthors(t *testing.T) {
	fresh, err := wranglerConfig(nil, "my-blog")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name, existing string
		keep           []string // substrings the result must still hold
	}{
		{"a new file, rebuilt", string(fresh), []string{`"name": "my-blog"`, "// The Cloudflare Workers project"}},
		{"the author's keys and comments", `// my notes
{
  "name": "renamed", // I chose this
  "account_id": "abc123",
  /* old:
     "main": "src/index.js" */
  "main": "worker/old.js",
  "routes": [{"pattern": "blog.example.org", "custom_domain": true}],
  "compatibility_date": "2024-01-01",
  "assets": {"directory": "./elsewhere"},
  "vars": {"A": "it's \"quoted\", // not a comment"},
}
`, []string{`"name": "renamed", // I chose this`, `"account_id": "abc123",`, "/* old:\n     \"main\": \"src/index.js\" */",
			`"routes": [{"pattern": "blog.example.org", "custom_domain": true}],`, `"vars": {"A": "it's \"quoted\", // not a comment"},` + "\n  \"rules\"", "// my notes\n"}},
		{"no trailing comma", `{"name": "x", "observability": {"enabled": true}}`, []string{`"observability": {"enabled": true},` + "\n  \"main\""}},
		{"empty object", `{}`, []string{`"name": "my-blog"`}},
		{"no name", `{"account_id": "a"}`, []string{`"account_id": "a",` + "\n  \"name\": \"my-blog\""}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := wranglerConfig([]byte(tc.existing), "my-blog")
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range tc.keep {
				if !strings.Contains(string(got), k) {
					t.Errorf("lost %q:\n%s", k, got)
				}
			}
			v := parseJSONC(t, got)
			if v["main"] != WorkerFile || v["compatibility_date"] != CompatibilityDate {
				t.Errorf("main %v, compatibility_date %v:\n%s", v["main"], v["compatibility_date"], got)
			}
			assets, _ := v["assets"].(map[string]any)
			if assets["directory"] != "./public" || assets["binding"] != "ASSETS" || assets["run_worker_first"] != true {
				t.Errorf("assets %v", assets)
			}
			if v["name"] == nil {
				t.Error("no name")
			}
			again, err := wranglerConfig(got, "other")
			if err != nil || string(again) != string(got) {
				t.Errorf("a second build changed the file (%v):\n%s\n---\n%s", err, got, again)
			}
		})
	}
}

func TestWranglerConfigRefusesWhatWranglerWould(t *testing.T) {
	for _, bad := range []string{``, `[]`, `{"a": 1} {}`, `{"a" 1}`, `{"a": "b}`, `{"a": 1 /* open`, `{a: 1}`, `{"a": [1, 2}`} {
		if got, err := wranglerConfig([]byte(bad), "x"); err == nil {
			t.Errorf("%q: no error, got %s", bad, got)
		} else if !strings.HasPrefix(err.Error(), "line ") {
			t.Errorf("%q: %v, want the line", bad, err)
		}
	}
}

// parseJSONC reads JSONC as Wrangler does: comments and trailing commas
// dropped, then JSON.
func parseJSONC(t *testing.T, src []byte) map[string]any {
	t.Helper()
	var out []byte
	for i := 0; i < len(src); i++ {
		switch {
		case src[i] == '"':
			j := i + 1
			for ; src[j] != '"'; j++ {
				if src[j] == '\\' {
					j++
				}
			}
			out = append(out, src[i:j+1]...)
			i = j
		case strings.HasPrefix(string(src[i:]), "//"):
			for i < len(src) && src[i] != '\n' {
				i++
			}
		case strings.HasPrefix(string(src[i:]), "/*"):
			i += strings.Index(string(src[i:]), "*/") + 1
		case src[i] == ',':
			j := i + 1
			for j < len(src) && strings.ContainsRune(" \t\r\n", rune(src[j])) {
				j++
			}
			if j < len(src) && (src[j] == '}' || src[j] == ']') {
				continue
			}
			out = append(out, ',')
		default:
			out = append(out, src[i])
		}
	}
	var v map[string]any
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	return v
}
