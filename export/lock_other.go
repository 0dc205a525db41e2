//go:build !unix

package export

// lockDir does not lock where the system has no flock: sweep then removes
// only leftovers older than staleAfter.
func lockDir(dir string, wait bool) (unlock func(), locked bool, err error) {
	return func() {}, false, nil
}
