package main

import (
	"bytes"
	"context"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBuildSlugCase: slugs that differ only in case are one URL, as
// Hugo lower-cases paths: a duplicate naming both files. With
// disablePathToLower they are two URLs, which serve answers, but build
// refuses them before writing anything, naming both files: their export
// folders would be one on a file system that ignores case.
func TestBuildSlugCase(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		refused    bool
	}{
		{"ascii", "Case", "case", true},
		{"unicode", "Café", "CAFÉ", true},
		{"different", "case", "cases", false},
	} {
		for _, keep := range []bool{false, true} {
			t.Run(tc.name+map[bool]string{false: "", true: "/disablePathToLower"}[keep], func(t *testing.T) {
				dir := t.TempDir()
				blog := filepath.Join(dir, "content", "blog")
				os.MkdirAll(blog, 0o755)
				os.WriteFile(filepath.Join(blog, "a.md"), []byte("---\ntitle: A\ndate: 2026-01-02\nslug: "+tc.a+"\n---\na\n"), 0o644)
				os.WriteFile(filepath.Join(blog, "b.md"), []byte("---\ntitle: B\ndate: 2026-01-03\nslug: "+tc.b+"\n---\nb\n"), 0o644)
				os.WriteFile(filepath.Join(dir, "hugo.toml"), []byte(fmt.Sprintf("disablePathToLower = %v\n", keep)), 0o644)
				out := filepath.Join(dir, "public")

				var stdout, stderr bytes.Buffer
				code := run(context.Background(), []string{"build", "--source", dir, "--out", out, "--base-url", "https://blog.example/"}, &stdout, &stderr)
				if !tc.refused {
					if code != 0 {
						t.Fatalf("exit %d, stderr:\n%s", code, stderr.String())
					}
					return
				}
				problem := filepath.Join(blog, "b.md") + ":4: duplicate URL /blog/" + url.PathEscape(strings.ToLower(tc.a)) + "/: also claimed by " + filepath.Join(blog, "a.md")
				posts := "1 post"
				if keep {
					problem = filepath.Join(blog, "b.md") + ":4: its URL differs only in case from that of " + filepath.Join(blog, "a.md") +
						": the static export cannot hold both /blog/" + url.PathEscape(tc.b) + "/ and /blog/" + url.PathEscape(tc.a) +
						"/ (one folder where the file system ignores case, as on macOS and Windows); rename one"
					posts = "2 posts"
				}
				want := problem + "\nfolio: 1 problem; " + out + " left as it was\n"
				if code != 1 || stderr.String() != want {
					t.Errorf("exit %d, stderr:\n%s\nwant exit 1, stderr:\n%s", code, stderr.String(), want)
				}
				if _, err := os.Stat(out); !os.IsNotExist(err) {
					t.Errorf("output written: %v", err)
				}
				// check, the gate before a deploy, refuses what build refuses.
				code, cout, _ := runCLI(t, "check", "--source", dir)
				if code != 1 || cout != problem+"\n"+posts+", 1 problem\n" {
					t.Errorf("check: exit %d, stdout:\n%s\nwant exit 1 and %s", code, cout, problem)
				}
			})
		}
	}
}
