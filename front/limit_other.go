//go:build !unix

package front

// openFileLimit: no such limit to read here (DefaultMaxConns caps at 65,536).
func openFileLimit() (int, bool) { return 0, false }
