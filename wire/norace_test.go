//go:build !race

package wire

const raceScale = 1
