//go:build !linux

package front

import "io"

// sendSection is sendfile(2) for a section of a file; elsewhere than
// Linux the copy goes through the connection's own ReadFrom.
func sendSection(conn io.Writer, r io.Reader) (int64, error, bool) { return 0, nil, false }
