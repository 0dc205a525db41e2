//go:build !unix

package export

import (
	"io"
	"os"
)

// createNew creates name, which must not exist, for writing.
func createNew(name string) (io.WriteCloser, error) {
	return os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
}
