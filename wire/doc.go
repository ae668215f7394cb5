// Package wire puts baton's run events on the wire for clients: a pure,
// stateful-per-stream projection onto the AG-UI protocol (AGUIProjector),
// a Server-Sent Events encoder, a plain NDJSON stream of baton's own
// events, and an http.Handler that accepts AG-UI's RunAgentInput, drives
// one conductor.Agent per thread and streams the run. A client that
// reconnects with Last-Event-ID gets the committed events after that
// sequence number, re-projected from the store, and then the live stream.
//
// wire imports contract, ledger, store and conductor of baton's packages.
package wire
