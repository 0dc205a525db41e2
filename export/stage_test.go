package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestStageSweepsLeftovers: what a build killed half way (kill -9) left
// beside the output, its staged folder, an old output on its way out, a
// temporary nginx config, its record half written, is removed by the
// next build; another output's is not (issue 15, finding 11).
func TestStageSweepsLeftovers(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	left := []string{".public.tmp-123456", ".public.tmp-123456.old", ".public.tmp-9/blog/x"}
	for _, name := range left {
		if err := os.MkdirAll(filepath.Join(dir, name), 0o700); err != nil {
			t.Fatal(err)
		}
		os.WriteFile(filepath.Join(dir, name, "index.html"), []byte("half"), 0o644)
	}
	os.WriteFile(filepath.Join(dir, ".nginx.conf.tmp-77"), []byte("half"), 0o644)
	os.WriteFile(filepath.Join(dir, ".nginx.conf.tmp-77.old"), []byte("old"), 0o644)
	os.WriteFile(filepath.Join(dir, "..public.folio-build.tmp-42"), []byte("half"), 0o600)
	os.MkdirAll(filepath.Join(dir, ".other.tmp-5"), 0o755)
	os.WriteFile(filepath.Join(dir, "nginx.conf"), []byte("previous"), 0o644)

	st, err := Stage(out, fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddFile(filepath.Join(dir, "nginx.conf"), []byte("new")); err != nil {
		t.Fatal(err)
	}
	if err := st.Commit(); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadDir(dir)
	var names []string
	for _, e := range got {
		names = append(names, e.Name())
	}
	if want := ".other.tmp-5 .public.folio-build nginx.conf public"; strings.Join(names, " ") != want {
		t.Errorf("beside the output after a build: %q, want %q", names, want)
	}
}

// TestCommitAllOrNothing: when a file staged with the export cannot be
// put in place (here its name is a folder), the files already replaced
// and the previous output are put back (issue 15, finding 8).
func TestCommitAllOrNothing(t *testing.T) {
	for _, first := range []bool{false, true} {
		dir := t.TempDir()
		out := filepath.Join(dir, "public")
		if !first {
			if _, err := Write(out, fakeSite{}, fakePaths, fakeOptions); err != nil {
				t.Fatal(err)
			}
			os.WriteFile(filepath.Join(out, "broken"), []byte("previous"), 0o644)
		}
		js, conf := filepath.Join(dir, "nginx.js"), filepath.Join(dir, "nginx.conf")
		os.WriteFile(js, []byte("previous script"), 0o644)
		os.Mkdir(conf, 0o755) // no file can be renamed over it

		st, err := Stage(out, fakeSite{}, fakePaths, fakeOptions)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.AddFile(js, []byte("new script")); err != nil {
			t.Fatal(err)
		}
		if err := st.AddFile(conf, []byte("new config")); err != nil {
			t.Fatal(err)
		}
		if err := st.Commit(); err == nil {
			t.Fatal("Commit put a file over a folder")
		}
		if got := readFile(t, dir, "nginx.js"); got != "previous script" {
			t.Errorf("first build %v: the script is %q after a failed commit", first, got)
		}
		if first {
			if _, err := os.Stat(out); !os.IsNotExist(err) {
				t.Errorf("a failed first commit left the output: %v", err)
			}
		} else if got := readFile(t, out, "broken"); got != "previous" {
			t.Errorf("a failed commit changed the previous output: broken = %q", got)
		}
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if strings.Contains(e.Name(), ".tmp-") {
				t.Errorf("first build %v: left behind: %s", first, e.Name())
			}
		}
	}
}

// TestAbortLeavesAll: a staged export thrown away (the nginx config
// could not be made) changes nothing.
func TestAbortLeavesAll(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "public")
	if _, err := Write(out, fakeSite{}, fakePaths, fakeOptions); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(out, "broken"), []byte("previous"), 0o644)
	st, err := Stage(out, fakeSite{}, fakePaths, fakeOptions)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.AddFile(filepath.Join(out, "broken", "x.conf"), nil); err == nil {
		t.Error("AddFile made a folder inside a file")
	}
	st.Abort()
	st.Abort()
	if err := st.Commit(); err == nil {
		t.Error("Commit after Abort")
	}
	if got := readFile(t, out, "broken"); got != "previous" {
		t.Errorf("an aborted export changed the output: broken = %q", got)
	}
	assertNoTemp(t, out)
}
