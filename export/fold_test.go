package export

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestFoldCase(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		same bool
	}{
		{"blog/Case/index.html", "blog/case/index.html", true},
		{"blog/CASE.md", "blog/case.md", true},
		{"blog/café", "blog/CAFÉ", true},
		{"K", "\u212a", true}, // the Kelvin sign folds with K
		{"blog/case", "blog/cases", false},
		{"a\xff", "A\xff", true}, // bytes that are not UTF-8 stay
		{"a\xff", "a\xfe", false},
		{"ß", "ss", false}, // simple folding only, as file systems do
	} {
		if got := FoldCase(tc.a) == FoldCase(tc.b); got != tc.same {
			t.Errorf("FoldCase(%q) == FoldCase(%q): %v, want %v", tc.a, tc.b, got, tc.same)
		}
	}
	// The ASCII way folds every ASCII character as the rune by rune way.
	var all []byte
	for c := range 128 {
		all = append(all, byte(c))
	}
	for _, name := range []string{string(all), "blog/Post-1/index.html", "UPPER", ""} {
		if got, ok := foldASCII(name); !ok || got != foldRunes(name) {
			t.Errorf("foldASCII(%q) = %q, %v; foldRunes: %q", name, got, ok, foldRunes(name))
		}
	}
	if _, ok := foldASCII("café"); ok {
		t.Error("foldASCII folds a name that is not ASCII")
	}
}

// TestWriteCaseClash: routes whose files differ only in case (posts
// slugged "Case" and "case") are refused before anything is written,
// naming both: on a file system that ignores case they are one file.
func TestWriteCaseClash(t *testing.T) {
	for _, paths := range [][]string{
		{"/blog/Case/", "/blog/case/"},
		{"/blog/Case.md", "/blog/case.md"},
		{"/blog/caf%C3%89/", "/blog/caf%C3%A9/"}, // É and é
		{"/blog/trip/IMG.png", "/blog/trip/img.png"},
		{"/blog/X.md", "/blog/x.md/"}, // a file and a folder
		{"/blog/x.md/", "/blog/X.md"},
		{"/blog/x.md.GZ", "/blog/x.md"}, // a file and a .gz twin
	} {
		out := filepath.Join(t.TempDir(), "public")
		_, err := Write(out, fakeSite{}, append(paths, "/404.html"), fakeOptions)
		if err == nil || !strings.Contains(err.Error(), "differ only in case") || !strings.Contains(err.Error(), paths[0]) || !strings.Contains(err.Error(), paths[1]) {
			t.Errorf("%v: %v, want an error naming both routes", paths, err)
		}
		if _, err := os.Stat(out); !os.IsNotExist(err) {
			t.Errorf("%v: output written: %v", paths, err)
		}
		assertNoTemp(t, out)
	}
}

// TestWriteCaseFolders: folders that differ only in case, holding
// different files, are one folder on such a file system, with both files
// in it: nothing collides.
func TestWriteCaseFolders(t *testing.T) {
	out := filepath.Join(t.TempDir(), "public")
	if _, err := Write(out, fakeSite{}, []string{"/blog/pX/a.md", "/blog/px/b.md", "/404.html"}, fakeOptions); err != nil {
		t.Fatal(err)
	}
	if got := readFile(t, out, "blog/pX/a.md"); got != "# /blog/pX/a.md\n" {
		t.Errorf("blog/pX/a.md = %q", got)
	}
}
