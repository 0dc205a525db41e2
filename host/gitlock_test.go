package host

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// TestGitLocks finds the index.lock of the repository holding each path:
// a .git folder above it, a linked worktree's .git file (relative or
// absolute gitdir), none outside a repository, each lock once.
func TestGitLocks(t *testing.T) {
	root := t.TempDir()
	mk := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if body != "" {
			if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	mk("repo/.git/HEAD", "ref: refs/heads/main\n")
	mk("repo/content/blog/x.md", "x")
	mk("repo/config.toml", "x")
	mk("wt/.git", "gitdir: ../repo/.git/worktrees/wt\n")
	mk("wt/content/x.md", "x")
	mk("abs/.git", "gitdir: "+filepath.Join(root, "elsewhere", "gitdir")+"\n")
	mk("bare/content/x.md", "x")
	at := func(rel string) string { return filepath.Join(root, filepath.FromSlash(rel)) }

	tests := []struct {
		name  string
		paths []string
		want  []string
	}{
		{"a repository's content and config", []string{at("repo/content"), "", at("repo/config.toml")}, []string{at("repo/.git/index.lock")}},
		{"a linked worktree", []string{at("wt/content")}, []string{at("repo/.git/worktrees/wt/index.lock")}},
		{"an absolute gitdir", []string{at("abs")}, []string{at("elsewhere/gitdir/index.lock")}},
		{"no repository", []string{at("bare/content")}, nil},
	}
	for _, tt := range tests {
		if got := gitLocks(tt.paths); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s: gitLocks = %q, want %q", tt.name, got, tt.want)
		}
	}
}
