package watch

import (
	"path"
	"strconv"
	"strings"
)

// DefaultIgnore is the Ignore used when Options leaves it nil. It matches a
// slash-separated path relative to a root when any of its elements is a
// name that only editors and tools make, never an author's content:
//
//   - hidden names (".x.md.swp", ".#x.md", ".x.md.tmp123", ".git"), which
//     the pipeline never reads either;
//   - Emacs autosaves "#x.md#";
//   - backups "x.md~" (vim, Emacs);
//   - vim swap files "x.swp", "x.swo", "x.swx" (from a 'directory' setting
//     that keeps them elsewhere with a visible name);
//
// Those are the names Hugo 0.165 leaves out of a content folder, but for
// the swap files. Other names tools make for a moment (vim's probe
// "4913", JetBrains' "x.md___jb_tmp___", "x.md.tmp") are a site's files
// when they stay, which Hugo publishes: the watcher drops them only when
// they come and go within one burst (transient).
//
// Ignored folders are not watched at all.
func DefaultIgnore(rel string) bool {
	for _, name := range strings.Split(rel, "/") {
		if ignoredName(name) {
			return true
		}
	}
	return false
}

func ignoredName(name string) bool {
	switch {
	case name == "", name == ".":
		return false
	case strings.HasPrefix(name, "."), strings.HasPrefix(name, "#"):
		return true
	}
	for _, suffix := range []string{"~", ".swp", ".swo", ".swx"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	return false
}

// transient reports whether name looks like a temporary file that a tool
// creates and removes or renames away within one save: GNU sed -i's
// "sedXXXXXX", vim's writability probes 4913, 5036, 5159, …, JetBrains'
// safe-write "x.md___jb_tmp___" and "x.md___jb_old___", and "x.md.tmp".
// Such names are not ignored, because a real folder may be called
// "sedentary" and Hugo publishes a file called "template.md.tmp"; a burst
// drops them only when they were created in the burst and are gone when
// it ends.
func transient(rel string) bool {
	name := path.Base(rel)
	for _, suffix := range []string{".tmp", "___jb_tmp___", "___jb_old___"} {
		if strings.HasSuffix(name, suffix) {
			return true
		}
	}
	if len(name) == len("sedXXXXXX") && strings.HasPrefix(name, "sed") && alnum(name[3:]) {
		return true
	}
	n, err := strconv.Atoi(name)
	return err == nil && n >= 4913 && (n-4913)%123 == 0 && strconv.Itoa(n) == name
}

func alnum(s string) bool {
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9') {
			return false
		}
	}
	return true
}
