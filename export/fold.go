package export

import (
	"fmt"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"
)

// FoldCase is name as a file system that ignores case sees it (macOS and
// Windows by default): two names with the same FoldCase are one file
// there. Each character becomes the smallest of its Unicode simple case
// folds ("K", "k" and the Kelvin sign are all "K"); bytes that are not
// UTF-8 stay as they are.
func FoldCase(name string) string {
	if s, ok := foldASCII(name); ok {
		return s
	}
	return foldRunes(name)
}

// foldASCII is FoldCase of an ASCII name (ok false for any other): a
// letter's smallest fold is its capital (the Kelvin sign folding with k,
// and the long s with s, are larger), anything else is its own. Most
// names are ASCII, and the check of a site's 10,000 URLs folded each rune
// through unicode.SimpleFold.
func foldASCII(name string) (string, bool) {
	lower := false
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c >= utf8.RuneSelf {
			return "", false
		}
		lower = lower || ('a' <= c && c <= 'z')
	}
	if !lower {
		return name, true
	}
	return strings.ToUpper(name), true
}

// foldRunes is FoldCase, rune by rune.
func foldRunes(name string) string {
	var b strings.Builder
	b.Grow(len(name))
	for i := 0; i < len(name); {
		r, size := utf8.DecodeRuneInString(name[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(name[i])
			i++
			continue
		}
		least := r
		for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
			least = min(least, f)
		}
		b.WriteRune(least)
		i += size
	}
	return b.String()
}

// caseClash refuses routes whose files differ only in case (posts
// slugged "Case" and "case"): copied to a file system that ignores case,
// one would overwrite the other. (nginx, whose maps ignore case, tells
// such routes apart all the same: see keyer.) files are in the order of
// the paths, with Path and Name set; names that are the same exactly are
// checked before this.
func caseClash(files []File) error {
	type owned struct{ name, route string }
	byFold := make(map[string]owned, 2*len(files)) // a file's folded name → the file
	for _, f := range files {
		for _, n := range []string{f.Name, f.Name + ".gz"} {
			k := FoldCase(n)
			if prev, dup := byFold[k]; dup && prev.name != n {
				return &NameClash{Paths: [2]string{prev.route, f.Path}, msg: fmt.Sprintf("export: %s and %s differ only in case: their files %s and %s would be one file where the file system ignores case (macOS, Windows); rename one", prev.route, f.Path, prev.name, n)}
			}
			byFold[k] = owned{n, f.Path}
		}
	}
	for _, f := range files {
		for d := path.Dir(f.Name); d != "."; d = path.Dir(d) {
			if prev, dup := byFold[FoldCase(d)]; dup && prev.name != d {
				return &NameClash{Paths: [2]string{prev.route, f.Path}, msg: fmt.Sprintf("export: %s and %s differ only in case: the file %s of the first and the folder %s of the second would be one where the file system ignores case (macOS, Windows); rename one", prev.route, f.Path, prev.name, d)}
			}
		}
	}
	return nil
}
