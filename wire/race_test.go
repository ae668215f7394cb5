//go:build race

package wire

// raceScale shrinks the load tests under the race detector, which slows
// each request tenfold; without it they run at full size.
const raceScale = 4
