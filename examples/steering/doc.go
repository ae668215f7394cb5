// Steering sends input to a run while it is in flight: the model sees it
// at its next call, and tool calls not yet started are skipped.
package main
