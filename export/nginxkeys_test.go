package export

import "testing"

// TestKeyer: map keys that differ from another key only in case become
// case-sensitive regular expressions; every other key stays a string.
func TestKeyer(t *testing.T) {
	k := newKeyer([]entry{{Key: "/old/"}, {Key: "/OLD/"}, {Key: "/api/posts.json"}, {Key: "/a.b$"}, {Key: "/A.B$"}, {Key: "/api/posts.json"}})
	for raw, want := range map[string]string{
		"/old/":           `"~^/old/\\z"`,
		"/OLD/":           `"~^/OLD/\\z"`,
		"/api/posts.json": `"/api/posts.json"`, // listed twice, still one key
		"/a.b$":           `"~^/a\\.b\\$\\z"`,
		"/Café":           `"/Café"`,
	} {
		if got := k.key(raw); got != want {
			t.Errorf("key(%q) = %s, want %s", raw, got, want)
		}
	}
}
