//go:build !unix

package export

// dirChanged: without a status-change time, every folder is listed.
func dirChanged(string) (int64, bool) { return 0, false }

// dirStamp: likewise.
func dirStamp(string) (int64, uint64, bool) { return 0, 0, false }
