// Package transcripttest is the conformance kit for HTTP providers, used
// beside turntest: an httptest server that plays recorded responses (SSE
// transcripts) in order, holding or cutting the connection where the
// transcript says, or serves one body byte for byte, keeping each
// request, and the checks every HTTP provider runs against it
// (transcripts decode to the expected chunks, HTTP errors and interruptions
// classify right, bad requests never leave, a ConfigChecker names the
// fields its API refuses, request bodies match their
// golden files, API keys are sent as the API expects, streams keep their
// invariants under fuzzing), the requests the transcripts answer, and a
// generator of histories in any order a host may leave them. A
// provider outside this module points a Suite at its own testdata folder.
// It imports contract and turn with its toolkit (endpoint, httpfail,
// relay) only.
package transcripttest
