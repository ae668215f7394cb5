// Package policy holds baton's architectural rules as tests, so that
// breaking one fails `go test ./...` rather than waiting for a review.
//
// The import graph test writes DESIGN.md's layout table as data, one row
// per top-level folder naming the folders of ours it may import, and fails
// naming every arrow the table forbids (in the manner of go/build's
// deps_test.go). The purity test parses and type-checks cadence, the pure
// reducer, and flags what would make a step depend on anything but its
// inputs: clock, randomness, files, network, goroutines, channels, locks,
// reflection, and iteration over maps in their random order (in the manner
// of Temporal's workflowcheck). The README tests type-check each go block
// of README.md against the current API and check that its package table
// names every package of the module.
//
// The package has no code outside its tests and imports nothing of ours.
package policy
