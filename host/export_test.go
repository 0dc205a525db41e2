package host

import (
	"path/filepath"
	"strings"
	"testing"

	"folio/pipeline"
)

func TestReservedProblems(t *testing.T) {
	cfg := &pipeline.Config{}
	cfg.Mounts = []pipeline.Mount{{Source: "content", Target: "content"}, {Source: "files", Target: "static"}}
	got := reservedProblems(cfg, []string{"/", "/_headers", "/blog/_headers", "/_worker.js/a.js"})
	if len(got) != 2 || got[0].Path != filepath.Join("files", "_headers") || got[1].Path != filepath.Join("files", "_worker.js", "a.js") ||
		!strings.Contains(got[0].Message, "remove or rename _headers to build with --cloudflare") {
		t.Errorf("reservedProblems = %v", got)
	}
}

func TestWorkerName(t *testing.T) {
	for _, tc := range []struct {
		base, title string
		set         bool
		want        string
	}{
		{"https://Blog.Example.org/", "My Blog", true, "blog-example-org"},
		{"http://localhost:8080/", "My Blog!", true, "my-blog"},
		{"http://localhost:8080/", "  ", false, "folio-site"},
		{"https://x.example/", "Notes", false, "notes"},
		{"", strings.Repeat("ab-", 40), false, strings.TrimSuffix(strings.Repeat("ab-", 21), "-")},
	} {
		cfg := &pipeline.Config{BaseURL: tc.base, Title: tc.title, BaseSet: tc.set}
		if got := workerName(cfg); got != tc.want {
			t.Errorf("workerName(%q, %q) = %q, want %q", tc.base, tc.title, got, tc.want)
		}
	}
}
