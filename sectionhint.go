package main

import (
	"cmp"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"folio/pipeline"
)

// sectionHint explains an empty section when the content folder has
// Markdown elsewhere: a site moved from Hugo often keeps its posts in
// content/posts/ while folio's default section is blog, and the site then
// starts with no posts and no word why. It returns "" when the section
// has any Markdown file, or when nothing else does either.
func sectionHint(contentDir, section, configFile string) string {
	sectionDir := filepath.Join(contentDir, section)
	if countMarkdown(sectionDir, 1) > 0 {
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
			if n := countMarkdown(filepath.Join(contentDir, name), -1); n > 0 {
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
	hint := sectionHint(cfg.ContentDir, cfg.Section, configFile)
	if hint == "" {
		return nil
	}
	return []pipeline.Problem{{Path: filepath.Join(cfg.ContentDir, cfg.Section), Line: 1, Message: hint}}
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

// countMarkdown counts the Markdown files under dir, stopping at limit
// when limit > 0. Folders it cannot read count as empty.
func countMarkdown(dir string, limit int) int {
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
			if n == limit {
				return fs.SkipAll
			}
		}
		return nil
	})
	return n
}
