//go:build !linux

package export

import "os"

// mapFile: the record is read (Ahead.readRecord).
func mapFile(*os.File, int64) ([]byte, bool) { return nil, false }
