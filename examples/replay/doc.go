// Replay runs a session into a store and replays it: folding the stored
// records through the same rules must reproduce every step's effects. The
// test beside it does the same inside go test, which is how a team keeps
// recorded sessions replaying as the code changes.
package main
