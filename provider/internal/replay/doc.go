// Package replay is test support for HTTP providers: an httptest server
// that plays recorded responses (SSE transcripts) in order, holding or
// cutting the connection where the transcript says, and the checks every
// provider runs against it (transcripts decode to the expected chunks,
// HTTP errors and interruptions classify right, bad requests never leave,
// request bodies match their golden files, streams keep their invariants
// under fuzzing), and the requests the transcripts answer. It imports
// contract and turn only.
package replay
