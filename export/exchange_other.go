//go:build !linux

package export

// exchange puts tmp in out's place; see renameAside.
func exchange(tmp, out string) (old string, err error) { return renameAside(tmp, out) }
