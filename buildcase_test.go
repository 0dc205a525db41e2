package main

import (
	"bytes"
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildSlugCase: posts whose slugs differ only in case are served by
// serve, but build refuses them before writing anything, naming both
// files: their export folders would be one on a file system that ignores
// case.
func TestBuildSlugCase(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		refused    bool
	}{
		{"ascii", "Case", "case", true},
		{"unicode", "Café", "CAFÉ", true},
		{"different", "case", "cases", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			blog := filepath.Join(dir, "content", "blog")
			os.MkdirAll(blog, 0o755)
			os.WriteFile(filepath.Join(blog, "a.md"), []byte("---\ntitle: A\ndate: 2026-01-02\nslug: "+tc.a+"\n---\na\n"), 0o644)
			os.WriteFile(filepath.Join(blog, "b.md"), []byte("---\ntitle: B\ndate: 2026-01-03\nslug: "+tc.b+"\n---\nb\n"), 0o644)
			out := filepath.Join(dir, "public")

			var stdout, stderr bytes.Buffer
			code := run(context.Background(), []string{"build", "--content", filepath.Join(dir, "content"), "--out", out, "--base-url", "https://blog.example/"}, &stdout, &stderr)
			if !tc.refused {
				if code != 0 {
					t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
				}
				return
			}
			want := filepath.Join(blog, "b.md") + `:1: slug "` + tc.b + `" differs only in case from "` + tc.a + `" of ` + filepath.Join(blog, "a.md") +
				": the static export cannot hold both /blog/" + url.PathEscape(tc.b) + "/ and /blog/" + url.PathEscape(tc.a) +
				"/ (one folder where the file system ignores case, as on macOS and Windows); rename one\nfolio: 1 problem; " + out + " left as it was\n"
			if code != 1 || stderr.String() != want {
				t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", code, stderr.String(), want)
			}
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("output written: %v", err)
			}
			// check, the gate before a deploy, refuses what build refuses.
			problem, _, _ := strings.Cut(want, "\nfolio: ")
			code, cout, _ := runCLI(t, "check", "--content", filepath.Join(dir, "content"))
			if code != 1 || cout != problem+"\n2 posts, 1 problem\n" {
				t.Errorf("check: exit %d, stdout:\n%s\nwant exit 1 and %s", code, cout, problem)
			}
		})
	}
}
