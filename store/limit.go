package store

import (
	"github.com/batonrt/baton/contract"
)

// MaxNode is the largest node, in canonical bytes, any store takes: 16
// MiB less 1 KiB, four times the text of a million-token context, more
// than any request to a model can hold. Append, AppendLinked, Record and
// Import refuse a larger node with ErrInvalid before anything is
// written, whatever the backend, so a session a store holds can always
// be exported, and imported into a store of any backend. The backends'
// own bounds (the file log's frame, PostgreSQL's 1 GiB value) lie far
// above it.
const MaxNode = 16<<20 - 1<<10

// MaxImportLine bounds one line of an export that Import reads, and so
// the memory a hostile line can take: a node's line is its bytes and
// some 200 more, so every node up to MaxNode fits.
const MaxImportLine = MaxNode + 1<<10

// nodeTooLarge is the error for a node of n bytes, over MaxNode.
func nodeTooLarge(n int) error {
	return errorf("%w: node of %d bytes, over the %d bytes a store takes in one node (store.MaxNode)", ErrInvalid, n, MaxNode)
}

// nodeAroundMax is the most bytes a node adds around its record's: its
// fields, a parent's hash among them, and its closing brace;
// nodeAroundFirst is what a session's first node, after none, adds.
var (
	nodeAroundMax   = nodeAround(true)
	nodeAroundFirst = nodeAround(false)
)

// nodeAroundLen is the length of the node holding a record of n bytes
// and no links, after a parent or, for a session's first, after none.
func nodeAroundLen(parent bool, n int) int {
	if parent {
		return nodeAroundMax + n
	}
	return nodeAroundFirst + n
}

func nodeAround(parent bool) int {
	var h Hash
	if parent {
		h[0] = 1
	}
	return len(appendNodeFields(nil, h, nil)) + 1
}

// fitsUnencoded says a reply's or a tool's result record, kept
// unencoded until read (Recorder), is sure to make a node within
// MaxNode; one that might not is encoded when taken, to be sized.
func fitsUnencoded(rec contract.Record) bool {
	n, ok := contract.EncodedBound(rec)
	return ok && n <= MaxNode-nodeAroundMax
}
