package pipeline

import (
	"net/url"
	"strings"
	"testing"
)

// TestEscapePath: EscapePath is url.PathEscape of each segment, whether
// the path takes the way round a path that needs no escape or not: for
// every byte alone, in a segment and beside a slash, and for paths as
// sites write them.
func TestEscapePath(t *testing.T) {
	reference := func(p string) string {
		segs := strings.Split(p, "/")
		for i, seg := range segs {
			segs[i] = url.PathEscape(seg)
		}
		return strings.Join(segs, "/")
	}
	paths := []string{"", "/", "/blog/post-0001/", "/tags/été/", "/a b/", "/100%/", "/x?y/", "/a;b,c/", "/$&+:=@/", "/~user/x.html", "//"}
	for c := range 256 {
		paths = append(paths, string(rune(c)), "/blog/"+string([]byte{byte(c)})+"x/", "a"+string([]byte{byte(c)}))
	}
	for _, p := range paths {
		if got, want := EscapePath(p), reference(p); got != want {
			t.Errorf("EscapePath(%q) = %q, want %q", p, got, want)
		}
	}
}
