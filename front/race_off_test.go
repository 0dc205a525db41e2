//go:build !race

package front

// raceEnabled: the tests run under the race detector.
const raceEnabled = false
