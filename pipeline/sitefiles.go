package pipeline

import (
	"io/fs"
	"maps"
	"path"
	"slices"
	"strings"
)

// This file keeps the files a site publishes that are not pages: the
// static folders' files (served at the root, or below a mount's target),
// the assets folders' files (published when content names them), and the
// content folders' other files (a section's files).

// Asset is the file of the assets mounts at rel, a path inside them
// ("img/a.png"), which Hugo's resources.Get finds.
func (s *Snapshot) Asset(rel string) (file string, ok bool) {
	file, ok = s.assets[rel]
	return file, ok
}

// scanFiles lists the files of the mounts with target kind ("static" or
// "assets"): static by URL path, assets by path inside the assets tree.
func (s *Snapshot) scanFiles(kind string) map[string]string {
	out := map[string]string{}
	for _, m := range s.config.Mounts {
		if m.Target != kind && !strings.HasPrefix(m.Target, kind+"/") {
			continue
		}
		sub := strings.TrimPrefix(strings.TrimPrefix(m.Target, kind), "/")
		// Hugo filters a static mount as a content one, walking it:
		// a folder left out is left out with all it holds. An asset is
		// looked up by its path (resources.Get, an image hook), and the
		// filters are asked about that path alone.
		walk, filter := m.Exclude, m.Exclude
		if kind == "static" {
			filter = nil
		} else {
			walk = nil
		}
		s.walkFiles(m.Source, kind == "static", walk, func(file, rel string) {
			if !filter.keeps(rel, false) {
				return
			}
			key := path.Join(sub, rel)
			if kind == "static" {
				key = "/" + key
			}
			if _, taken := out[key]; !taken {
				out[key] = file
			}
		})
	}
	return out
}

// walkFiles calls fn for each regular file below root with its path in
// the FS and its path below root. Hidden and editors' files are left out
// unless all is true: Hugo publishes every file of a static folder as it
// is (.htaccess, .nojekyll, .well-known/, even an editor's backup),
// where its content walk skips them. A file or folder the mount's filter
// leaves out is left out, with all a folder holds.
func (s *Snapshot) walkFiles(root string, all bool, filter *mountFilter, fn func(file, rel string)) {
	fs.WalkDir(s.fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		if p != root && !all && ignored(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		rel := strings.TrimPrefix(strings.TrimPrefix(p, root), "/")
		if p != root && !filter.keeps(rel, d.IsDir()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() {
			fn(p, rel)
		}
		return nil
	})
}

// inMount reports whether p is in a mount with target kind.
func (c *Config) inMount(p, kind string) bool {
	for _, m := range c.Mounts {
		if (m.Target == kind || strings.HasPrefix(m.Target, kind+"/")) &&
			(m.Source == "." || p == m.Source || strings.HasPrefix(p, m.Source+"/")) {
			return true
		}
	}
	return false
}

// withFiles returns s with its lists of files brought up to date after
// the paths changed: s itself when none of them is a static or asset file,
// a content folder's other file, or a bundle's index (whose coming or
// going makes the files beside it a bundle's resources or the site's).
func (s *Snapshot) withFiles(changed []string) *Snapshot {
	var static, assets, content bool
	for _, p := range changed {
		static = static || s.config.inMount(p, "static")
		assets = assets || s.config.inMount(p, "assets")
		content = content || (s.config.inContent(p) && (!isContentFile(path.Base(p)) || s.isIndexFile(p)))
	}
	if !static && !assets && !content {
		return s
	}
	n := *s
	if static {
		n.static = s.scanFiles("static")
	}
	if assets {
		n.assets = s.scanFiles("assets")
	}
	if content {
		n.files = s.contentFiles(changed)
	}
	return &n
}

// isIndexFile reports whether p is named as a leaf bundle's index.
func (s *Snapshot) isIndexFile(p string) bool {
	base := path.Base(p)
	return isContentFile(base) && s.config.parseContentName(base).isIndex()
}

// contentFiles is s.files with the changed paths looked at again.
func (s *Snapshot) contentFiles(changed []string) []string {
	set := map[string]bool{}
	for _, f := range s.files {
		set[f] = true
	}
	for _, p := range changed {
		if !s.config.inContent(p) {
			continue
		}
		if s.isIndexFile(p) {
			p = path.Dir(p) // its folder's files are a bundle's, or no longer
		}
		for f := range maps.Clone(set) {
			if f == p || strings.HasPrefix(f, p+"/") {
				delete(set, f)
			}
		}
		info, err := fs.Stat(s.fsys, p)
		switch {
		case err != nil, s.throughLink(p): // links are never followed (symlinks.go)
		case info.IsDir():
			if found, err := s.scan(p); err == nil && s.bundleOf(p) == "" {
				for _, f := range found.files {
					set[f] = true
				}
			}
		case info.Mode().IsRegular() && !isContentFile(path.Base(p)) && !ignored(path.Base(p)) && s.bundleOf(path.Dir(p)) == "":
			set[p] = true
		}
	}
	out := make([]string, 0, len(set))
	for f := range set {
		out = append(out, f)
	}
	slices.Sort(out)
	return out
}
