//go:build !unix

package watch

// fileID identifies a folder independently of its name; without inode
// numbers there is none, and a folder moved before its rename event is
// handled is only found by that event.
type fileID struct{}

func idOf(string) (fileID, bool) { return fileID{}, false }
