package reliability

import (
	"bytes"
	"compress/gzip"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestExportHoldsNoUnpublished runs folio build on the leak fixture and on
// the same site without its hidden files (both without the public post's
// links to them, which build refuses: TestBuildRefusesLinksToHidden): the two exports hold the same
// files with the same bytes, and no file name, file body (gzip twins
// decompressed) or the nginx config names anything of a hidden post.
func TestExportHoldsNoUnpublished(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the folio binary")
	}
	t.Parallel() // the folio binary works in its own process; the wait overlaps TestSlowloris's
	dir := t.TempDir()
	exports := map[string]map[string][]byte{}
	for name, files := range map[string]map[string]string{"full": unlinked(leakSite), "public": unlinked(publicOnly())} {
		site := filepath.Join(dir, name)
		writeTree(t, filepath.Join(site, "content"), files)
		code, stderr := runFolio(t, site, "build", "--content", "content", "--out", "out",
			"--base-url", base, "--nginx", "nginx.conf")
		if code != 0 {
			t.Fatalf("folio build (%s site): exit %d\n%s", name, code, stderr)
		}
		exports[name] = readTree(t, filepath.Join(site, "out"))
		conf, err := os.ReadFile(filepath.Join(site, "nginx.conf"))
		if err != nil {
			t.Fatal(err)
		}
		if tok := leaked(conf); tok != "" {
			t.Errorf("the nginx config of the %s site names %q of an unpublished post", name, tok)
		}
	}
	full, public := exports["full"], exports["public"]
	if !slices.Equal(sortedKeys(full), sortedKeys(public)) {
		t.Errorf("the exports hold different files:\nfull   %q\npublic %q", sortedKeys(full), sortedKeys(public))
	}
	for _, name := range sortedKeys(full) {
		body := full[name]
		if tok := leaked([]byte(name)); tok != "" {
			t.Errorf("exported file %s is named after %q of an unpublished post", name, tok)
		}
		if tok := leaked(body); tok != "" {
			t.Errorf("exported file %s holds %q of an unpublished post", name, tok)
		}
		if pub, ok := public[name]; ok && !bytes.Equal(body, pub) {
			t.Errorf("exported file %s differs from the site without unpublished posts:\n%s\nvs\n%s", name, clip(body), clip(pub))
		}
	}
	if len(full) < 20 {
		t.Errorf("the export holds %d files; expected every route", len(full))
	}
	t.Logf("%d exported files searched and compared", len(full))
}

// readTree reads every file under dir, gzip files decompressed, by
// slash-separated name.
func readTree(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(p, ".gz") {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return err
			}
			if data, err = io.ReadAll(zr); err != nil {
				return err
			}
		}
		rel, _ := filepath.Rel(dir, p)
		out[filepath.ToSlash(rel)] = data
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// TestBuildRefusesLinksToHidden: the public post's links and refs to
// posts that are not published are problems: build names each one and
// writes nothing.
func TestBuildRefusesLinksToHidden(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the folio binary")
	}
	site := t.TempDir()
	writeTree(t, filepath.Join(site, "content"), leakSite)
	code, stderr := runFolio(t, site, "build", "--content", "content", "--out", "out", "--base-url", base)
	if code != 1 || !strings.HasSuffix(stderr, " left as it was\n") {
		t.Fatalf("exit %d, want 1\n%s", code, stderr)
	}
	for _, want := range []string{`link to "../draft-secret-qx1/": the post is not published`, `ref "draft-secret-qx1": the post is not published`,
		`ref "future-post-qx2": the post is not published`, `link to "../nested-draft-qx8/": the post is not published`} {
		if !strings.Contains(stderr, "content/blog/hello.md:") || !strings.Contains(stderr, want) {
			t.Errorf("stderr does not say %s:\n%s", want, stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(site, "out")); !os.IsNotExist(err) {
		t.Errorf("an export was written: %v", err)
	}
}
