//go:build !race

package server

// raceScale: see race_on_test.go.
const raceScale = 1
