package host

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"

	"folio/export"
	"folio/pipeline"
)

// Gate is what check and build refuse beyond the snapshot's own problems
// (check is the gate before a deploy, so it fails on whatever would stop
// build): a section left empty while posts sit elsewhere, and slugs the
// static export cannot hold apart. configFile is the config to point the
// author at.
func Gate(snap *pipeline.Snapshot, configFile string) []pipeline.Problem {
	return slices.Concat(sectionProblems(snap.Config(), configFile), slugCaseProblems(snap), controlPathWarnings(snap), unreadableFiles(snap))
}

// unreadableFiles reports the files the site publishes (bundle files,
// the sections' and static files) that cannot be opened: serve would
// answer each with 500 until it can, and build would stop on it half
// way. Listing a folder does not open its files, so only this finds them.
func unreadableFiles(snap *pipeline.Snapshot) []pipeline.Problem {
	var out []pipeline.Problem
	seen := map[string]bool{}
	check := func(file string, open func() (fs.File, error)) {
		if seen[file] {
			return
		}
		seen[file] = true
		f, err := open()
		if err == nil {
			f.Close()
			return
		}
		if errors.Is(err, fs.ErrNotExist) {
			return // gone since the snapshot: the next one leaves it out
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		out = append(out, pipeline.Problem{Path: snap.DisplayPath(file), Line: 1,
			Message: fmt.Sprintf("file cannot be read (%v): serve answers 500 for it and build stops on it", err)})
	}
	for _, p := range snap.Posts() {
		for _, r := range p.Resources {
			check(p.Bundle+"/"+r, func() (fs.File, error) { return snap.Resource(p, r) })
		}
	}
	for r := range snap.EachRoute() {
		if r.Kind == pipeline.RouteFile {
			check(r.File, func() (fs.File, error) { return snap.FS().Open(r.File) })
		}
	}
	return out
}

// controlPathWarnings warns of aliases and bundle files whose URL holds a
// control character (a tab, say). Hugo publishes them as written, and so
// do serve and the static files, but nginx cannot match such a path:
// build --nginx refuses the site, changing nothing. (A slug takes Hugo's
// sanitised form instead: see the pipeline.)
func controlPathWarnings(snap *pipeline.Snapshot) []pipeline.Problem {
	var out []pipeline.Problem
	warn := func(file, what, name string) {
		r, _ := utf8.DecodeRuneInString(name[strings.IndexFunc(name, isControl):])
		out = append(out, pipeline.Problem{Path: snap.DisplayPath(file), Line: 1, Severity: pipeline.Warning,
			Message: fmt.Sprintf("%s %q holds a control character (%U): build --nginx refuses it, as nginx cannot match such a path; rename it", what, name, r)})
	}
	for _, p := range snap.Posts() {
		for _, a := range p.Aliases {
			if strings.ContainsFunc(a, isControl) {
				warn(p.File, "alias", a)
			}
		}
		for _, r := range p.Resources {
			if strings.ContainsFunc(r, isControl) {
				warn(p.Bundle+"/"+r, "bundle file", r)
			}
		}
	}
	return out
}

// isControl is what nginx's config cannot match in a path: C0 and DEL.
func isControl(r rune) bool { return r < 0x20 || r == 0x7f }

// SectionHint explains an empty section when the content folder has
// Markdown elsewhere: a site moved from Hugo often keeps its posts in
// content/posts/ while folio's default section is blog, and the site then
// starts with no posts and no word why. It returns "" when the section
// has any Markdown file, or when nothing else does either.
func SectionHint(contentDir, section, configFile string) string {
	sectionDir := filepath.Join(contentDir, section)
	if hasMarkdown(sectionDir) {
		return ""
	}
	entries, err := os.ReadDir(contentDir)
	if err != nil {
		return ""
	}
	type folder struct {
		name string
		n    int
	}
	var folders []folder
	loose := 0 // Markdown files right in the content folder
	for _, e := range entries {
		name := e.Name()
		switch {
		case name == section || strings.HasPrefix(name, "."):
		case e.IsDir() && validSection(name):
			if n := countMarkdown(filepath.Join(contentDir, name)); n > 0 {
				folders = append(folders, folder{name, n})
			}
		case e.Type().IsRegular() && isMarkdown(name):
			loose++
		}
	}
	empty := "no posts in " + sectionDir + string(filepath.Separator)
	if len(folders) > 0 {
		best := slices.MaxFunc(folders, func(a, b folder) int {
			return cmp.Or(cmp.Compare(a.n, b.n), strings.Compare(b.name, a.name)) // most files, then first by name
		})
		return fmt.Sprintf("%s; %s has %s (set section = %q in %s)", empty,
			filepath.Join(contentDir, best.name)+string(filepath.Separator), markdownFiles(best.n), best.name, configFile)
	}
	if loose > 0 {
		return fmt.Sprintf("%s; %s has %s outside any section (posts go in %s)", empty,
			filepath.Clean(contentDir)+string(filepath.Separator), markdownFiles(loose), sectionDir+string(filepath.Separator))
	}
	return ""
}

// sectionProblems is the hint as a problem, for the commands that gate a
// deploy: without it a site whose posts all sit outside the section passes
// check with "0 posts, 0 problems" and builds an empty site over the live
// one. serve and dev only print the hint: an author may be starting out.
func sectionProblems(cfg *pipeline.Config, configFile string) []pipeline.Problem {
	hint := SectionHint(cfg.ContentDir, cfg.Section, configFile)
	if hint == "" {
		return nil
	}
	return []pipeline.Problem{{Path: filepath.Join(cfg.ContentDir, cfg.Section), Message: hint}} // a folder: no line
}

func markdownFiles(n int) string {
	if n == 1 {
		return "1 Markdown file"
	}
	return fmt.Sprintf("%d Markdown files", n)
}

// validSection reports whether a folder name could be the section.
func validSection(name string) bool {
	c := pipeline.DefaultConfig()
	c.Section = name
	return c.Validate() == nil
}

// isMarkdown is the pipeline's rule for a post file (_index.md and
// editors' files are not posts).
func isMarkdown(name string) bool {
	return pipeline.IsPostFile(filepath.Base(name))
}

// hasMarkdown reports whether dir holds a Markdown file, in it or in a
// folder below (countMarkdown's rule: hidden folders and links to folders
// are not entered, dir itself is followed): each folder is read in
// batches, in the order the system lists it, and the search stops at the
// first file found. filepath.WalkDir reads and sorts the whole of
// each folder first: 0.1 s of a 100,000-post start, before the load.
func hasMarkdown(dir string) bool {
	dirs := []string{filepath.Clean(dir) + string(filepath.Separator)}
	for len(dirs) > 0 {
		d := dirs[0]
		dirs = dirs[1:]
		f, err := os.Open(d)
		if err != nil {
			continue
		}
		for {
			entries, err := f.ReadDir(256)
			for _, e := range entries {
				switch name := e.Name(); {
				case e.Type().IsRegular() && isMarkdown(name):
					f.Close()
					return true
				case e.IsDir() && !strings.HasPrefix(name, "."):
					dirs = append(dirs, filepath.Join(d, name))
				}
			}
			if err != nil || len(entries) == 0 {
				break
			}
		}
		f.Close()
	}
	return false
}

// countMarkdown counts the Markdown files under dir. Folders it cannot
// read count as empty.
func countMarkdown(dir string) int {
	n := 0
	// The trailing separator makes WalkDir follow dir itself when it is a
	// symlink (a section linked in from elsewhere), as the pipeline does.
	root := filepath.Clean(dir) + string(filepath.Separator)
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if d.IsDir() && path != root && strings.HasPrefix(d.Name(), ".") {
			return fs.SkipDir
		}
		if d.Type().IsRegular() && isMarkdown(d.Name()) {
			n++
		}
		return nil
	})
	return n
}

// slugCaseProblems reports published posts whose URLs differ only in case
// ("Case" and "case" under disablePathToLower). folio serve answers both,
// but the static export cannot hold both: on a file system that
// ignores case (macOS, Windows, many upload targets) blog/Case/ and
// blog/case/ are one folder. build refuses such a site up front,
// naming both files, as check names the two files of a duplicate URL.
// The export refuses any two file names that differ only in case; this
// is the same rule for the common case, said in the author's terms.
func slugCaseProblems(snap *pipeline.Snapshot) []pipeline.Problem {
	posts := slices.Clone(snap.Posts())
	slices.SortFunc(posts, func(a, b *pipeline.Post) int { return cmp.Compare(a.File, b.File) })
	first := make(map[string]*pipeline.Post, len(posts)) // folded URL → the first post by file
	var out []pipeline.Problem
	for _, p := range posts {
		u := snap.URLOf(p)
		k := u
		if raw, err := url.PathUnescape(u); err == nil {
			k = raw
		}
		k = export.FoldCase(k)
		q, dup := first[k]
		if !dup {
			first[k] = p
			continue
		}
		if u == snap.URLOf(q) {
			continue // the same URL: the pipeline reports that
		}
		out = append(out, pipeline.Problem{
			Path: snap.DisplayPath(p.File),
			Line: p.URLLine(),
			Message: fmt.Sprintf("its URL differs only in case from that of %s: the static export cannot hold both /%s and /%s (one folder where the file system ignores case, as on macOS and Windows); rename one",
				snap.DisplayPath(q.File), u, snap.URLOf(q)),
		})
	}
	return out
}
