//go:build race

package reliability

// raceScale divides the sizes of the hostile inputs under -race, which
// makes them some ten times slower; without -race they run full size
// (.ci/fuzz runs them so in CI).
const raceScale = 4
