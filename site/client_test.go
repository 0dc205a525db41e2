package site_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestJSClient runs the JavaScript client's node tests (test/*.test.mjs)
// against a real folio server serving test/content.
func TestJSClient(t *testing.T) {
	node := tool(t, "node", "nodejs")
	files, err := filepath.Glob("test/*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no node tests in test/: %v", err)
	}
	base := startFixture(t)
	cmd := exec.Command(node, append([]string{"--test"}, files...)...)
	cmd.Env = append(os.Environ(), "FOLIO_URL="+base)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("node --test: %v\n%s", err, out)
	}
	t.Logf("node --test:\n%s", out)
}
