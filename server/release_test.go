package server

import (
	"bytes"
	"testing"
)

// TestRelease: releasing a post's page or Markdown URL drops its render
// and answers, which come back byte for byte on the next request; other
// paths, and posts that do not exist, are ignored.
func TestRelease(t *testing.T) {
	s, ts := startSite(t, generatedSite(3))
	page, md := "/blog/post-00001/", "/blog/post-00001.md"
	held := func() []string {
		st := s.current.Load()
		var keys []string
		for _, k := range []string{"page:post:post-00001", "md:post:post-00001", "vary:md:post:post-00001"} {
			if _, ok := st.reps.Load(k); ok {
				keys = append(keys, k)
			}
		}
		if _, ok := st.renders().results.Load(st.snap.Post("post-00001")); ok {
			keys = append(keys, "render")
		}
		return keys
	}
	_, html := get(t, ts, "GET", page)
	_, negotiated := get(t, ts, "GET", page, "Accept", "text/markdown")
	_, markdown := get(t, ts, "GET", md)
	if got := held(); len(got) != 4 {
		t.Fatalf("after serving the post: held %v, want its three answers and its render", got)
	}
	for _, p := range []string{"/", "/blog/", "/blog/post-00001/x/", "/blog/%zz/", "/blog/nope/", "/api/posts.json", "/other/post-00001/"} {
		s.Release(p)
	}
	if got := held(); len(got) != 4 {
		t.Fatalf("other paths released something: held %v", got)
	}
	for _, p := range []string{page, md} {
		s.Release(p)
		if got := held(); len(got) != 0 {
			t.Fatalf("after Release(%s): still held %v", p, got)
		}
		for _, c := range []struct {
			path, accept string
			want         []byte
		}{{page, "", html}, {page, "text/markdown", negotiated}, {md, "", markdown}} {
			resp, body := get(t, ts, "GET", c.path, "Accept", c.accept)
			if resp.StatusCode != 200 || !bytes.Equal(body, c.want) {
				t.Errorf("after Release(%s), %s (Accept %q): %d, %d bytes; want the same %d bytes", p, c.path, c.accept, resp.StatusCode, len(body), len(c.want))
			}
		}
	}
}
