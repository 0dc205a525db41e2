//go:build !race

package reliability

// raceScale: see race_on_test.go.
const raceScale = 1
