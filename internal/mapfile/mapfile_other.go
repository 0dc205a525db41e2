//go:build !linux

package mapfile

import "os"

// Map: not mapped here; the caller reads the file.
func Map(*os.File, int64) ([]byte, bool) { return nil, false }
