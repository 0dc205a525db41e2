//go:build race

package server

// raceScale divides the sizes of the large tests under -race, which makes
// them some ten times slower (.ci/fuzz runs them full size).
const raceScale = 100
