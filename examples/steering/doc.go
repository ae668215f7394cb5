// Steering sends input to a run while it is in flight: the model sees it
// at its next call, the search running when it comes goes on to its end,
// and the search not yet started (the tool is sequential, so the second
// waits for the first) is skipped.
package main
