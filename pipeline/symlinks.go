package pipeline

import (
	"io/fs"
	"path"
	"strings"
)

// Symbolic links inside the content are never followed, as by Hugo 0.165,
// which publishes nothing through a link to a file, a folder or a bundle's
// file: a walk of the content sees a link as neither a file nor a folder,
// so check, build and every start leave it out. A change a watcher
// reports is read by its path, which the file system resolves through
// links: throughLink keeps such a path out as well, so that serve --watch
// and dev see the site a fresh start sees. A mount's own folder (the
// content folder, or a section mounted from elsewhere) may be a link; the
// content FS itself keeps everything inside the content folder.

// throughLink reports whether the path p, in a mount, is a symbolic link
// or lies below one, short of the mount's own folder.
func (s *Snapshot) throughLink(p string) bool {
	cm, ok := s.config.mountOf(p)
	if !ok {
		return false
	}
	root := strings.TrimSuffix(strings.TrimSuffix(p, cm.rel), "/")
	for q := p; q != root && q != "." && q != "" && q != "/"; q = path.Dir(q) {
		if info, err := fs.Lstat(s.fsys, q); err == nil && info.Mode()&fs.ModeSymlink != 0 {
			return true
		}
	}
	return false
}
