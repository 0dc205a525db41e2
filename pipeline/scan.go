package pipeline

import (
	"errors"
	"hash/maphash"
	"io/fs"
	"path"
	"runtime"
	"slices"
	"strings"
	"sync"
)

// A unit is one post: a Markdown file "blog/x.md", or a page bundle folder
// "blog/x" holding index.md and its resources. Units are found by walking
// the section folder; folders without index.md are walked into, so posts
// may be grouped in subfolders.

// scan lists the unit keys under dir.
func (s *Snapshot) scan(dir string) ([]string, error) {
	var keys []string
	err := fs.WalkDir(s.fsys, dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir && errors.Is(err, fs.ErrNotExist) {
				return fs.SkipAll // no section folder: an empty site
			}
			if p == dir {
				return err
			}
			return nil // an unreadable subfolder is skipped, not fatal
		}
		if p != dir && ignored(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if p != s.config.Section && isFile(s.fsys, p+"/index.md") {
				keys = append(keys, p)
				return fs.SkipDir
			}
			return nil
		}
		if isPostFile(d.Name()) && d.Type().IsRegular() {
			keys = append(keys, p)
		}
		return nil
	})
	return keys, err
}

// affected returns the unit keys to read again after path p changed: the
// key itself, every known unit below it, and what a scan of a changed
// folder finds. A key that is no longer a post reads as nil and is dropped.
func (s *Snapshot) affected(units map[string]*unit, p string) ([]string, error) {
	// Inside a bundle (known, or new because index.md appeared)?
	sec := s.config.Section
	for dir := path.Dir(p); dir != sec && dir != "." && dir != "/"; dir = path.Dir(dir) {
		if _, known := units[dir]; known || isFile(s.fsys, dir+"/index.md") {
			return s.rescanDir(units, dir)
		}
	}
	if _, known := units[p]; known && !strings.HasSuffix(p, ".md") {
		return s.rescanDir(units, p) // a bundle folder itself
	}
	info, err := fs.Stat(s.fsys, p)
	switch {
	case err != nil || !info.IsDir():
		// A file, or something gone: read that key again, and forget what
		// was below it if it was a folder.
		keys := []string{p}
		for k := range units {
			if strings.HasPrefix(k, p+"/") {
				keys = append(keys, k)
			}
		}
		return keys, nil
	default:
		return s.rescanDir(units, p)
	}
}

// rescanDir forgets every unit at or below dir and lists them afresh.
func (s *Snapshot) rescanDir(units map[string]*unit, dir string) ([]string, error) {
	keys := []string{dir}
	for k := range units {
		if strings.HasPrefix(k, dir+"/") {
			keys = append(keys, k)
		}
	}
	found, err := s.scan(dir)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return keys, nil // gone or unreadable: its units are dropped
	}
	return append(keys, found...), nil
}

// parseAll reads the units named by keys, in parallel. A key that is no
// longer a unit maps to nil. old supplies the previous units, so an
// unchanged file is not parsed again and a broken one keeps its last good
// post.
func (s *Snapshot) parseAll(keys []string, old map[string]*unit) map[string]*unit {
	out := make(map[string]*unit, len(keys))
	var mu sync.Mutex
	work := make(chan string)
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), max(len(keys), 1)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range work {
				u := s.readUnit(k, old[k])
				mu.Lock()
				out[k] = u
				mu.Unlock()
			}
		}()
	}
	for _, k := range keys {
		work <- k
	}
	close(work)
	wg.Wait()
	return out
}

// hashSeed keys the content hashes. maphash is several times faster than
// FNV on whole files, and its per-process seed is enough: hashes are only
// compared between snapshots of one process.
var hashSeed = maphash.MakeSeed()

// readUnit reads one unit; nil when it is no longer a post.
func (s *Snapshot) readUnit(key string, prev *unit) *unit {
	file, bundle, slug := key, "", strings.TrimSuffix(path.Base(key), ".md")
	if !strings.HasSuffix(key, ".md") {
		file, bundle, slug = key+"/index.md", key, path.Base(key)
	} else if !isPostFile(path.Base(key)) || s.insideBundle(key) {
		return nil
	}
	src, err := readPost(s.fsys, file)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) || bundle != "" && isFile(s.fsys, bundle) {
			return nil // gone, or a bundle key that is a plain file now (sed -i's temporary file)
		}
		if errors.As(err, new(*contentError)) {
			return s.failed(prev, file, err) // too large
		}
		return s.failed(prev, file, errorAt(1, "read: %v", err))
	}
	var resources []string
	if bundle != "" {
		resources = listResources(s.fsys, bundle)
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	h.Write(src)
	for _, r := range resources {
		h.WriteByte(0)
		h.WriteString(r)
	}
	sum := h.Sum64()
	if prev != nil && prev.problem == nil && prev.hash == sum {
		return prev
	}
	post, err := parsePost(file, src, slug, s.config.Location)
	if err != nil {
		return s.failed(prev, file, err)
	}
	post.Bundle, post.Resources, post.Hash = bundle, resources, sum
	if post.Description == "" && s.opts.Describe != nil {
		post.Description = s.opts.Describe(post)
	}
	return &unit{post: post, hash: sum}
}

// insideBundle reports whether a .md file sits in a bundle folder, where it
// is a resource, not a post.
func (s *Snapshot) insideBundle(file string) bool {
	sec := s.config.Section
	for dir := path.Dir(file); dir != sec && dir != "." && dir != "/"; dir = path.Dir(dir) {
		if isFile(s.fsys, dir+"/index.md") {
			return true
		}
	}
	return false
}

// failed records a parse failure, keeping the last good post if any.
func (s *Snapshot) failed(prev *unit, file string, err error) *unit {
	line, msg := 1, err.Error()
	var ce *contentError
	if errors.As(err, &ce) {
		line, msg = ce.line, ce.msg
	}
	u := &unit{problem: &Problem{Path: s.display(file), Line: line, Message: msg}}
	if prev != nil {
		u.post, u.hash = prev.post, prev.hash
	}
	return u
}

func listResources(fsys fs.FS, bundle string) []string {
	var out []string
	fs.WalkDir(fsys, bundle, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == bundle {
			return nil
		}
		if ignored(d.Name()) {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.Type().IsRegular() && p != bundle+"/index.md" {
			out = append(out, strings.TrimPrefix(p, bundle+"/"))
		}
		return nil
	})
	slices.Sort(out)
	return out
}

// IsPostFile reports whether a file named name (no folder) is a post to
// the pipeline: a .md file other than _index.md that no editor leaves
// behind.
func IsPostFile(name string) bool { return isPostFile(name) }

func isPostFile(name string) bool {
	return strings.HasSuffix(name, ".md") && name != "_index.md" && !ignored(name)
}

// ignored matches hidden files and editors' swap, backup and temp files.
func ignored(name string) bool {
	return strings.HasPrefix(name, ".") || strings.HasPrefix(name, "#") ||
		strings.HasSuffix(name, "~") || strings.HasSuffix(name, ".swp") ||
		strings.HasSuffix(name, ".swx") || strings.HasSuffix(name, ".tmp") ||
		strings.HasSuffix(name, "___jb_tmp___") || strings.HasSuffix(name, "___jb_old___") ||
		name == "4913"
}

func isFile(fsys fs.FS, p string) bool {
	info, err := fs.Stat(fsys, p)
	return err == nil && info.Mode().IsRegular()
}
