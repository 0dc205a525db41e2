//go:build race

package reliability

// raceScale divides the sizes of the hostile inputs under -race, which
// makes them some ten times slower (see scale).
const raceScale = 4
