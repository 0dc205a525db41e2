//go:build race

package integration

// The binary under test is built with the race detector when the tests
// are, so the integration tests also look for races in folio itself.
func init() { buildFlags = append(buildFlags, "-race") }
