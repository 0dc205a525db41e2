package digest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestGoBuildID: the build ID read from the test's own executable is the
// one `go tool buildid` prints; a file that is not an ELF executable has
// none (the executable is then hashed).
func TestGoBuildID(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	id, ok := goBuildID(exe)
	out, err := exec.Command("go", "tool", "buildid", exe).Output()
	if err != nil {
		t.Skipf("go tool buildid: %v", err)
	}
	if want := strings.TrimSpace(string(out)); !ok || id != want {
		t.Errorf("goBuildID = %q, %v; want %q", id, ok, want)
	}
	other := filepath.Join(t.TempDir(), "x")
	if err := os.WriteFile(other, []byte("#!/bin/sh\necho not elf\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if id, ok := goBuildID(other); ok {
		t.Errorf("a shell script has the build ID %q", id)
	}
	if Program() == ([32]byte{}) {
		t.Error("no Program digest")
	}
}
