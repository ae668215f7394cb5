// Package wire puts baton's run events on the wire for clients: pure,
// stateful-per-stream projections onto the AG-UI protocol
// (AGUIProjector) and onto the Vercel AI SDK's UI message stream
// (UIMessageProjector), a Server-Sent Events encoder, a plain NDJSON
// stream of baton's own events, and an http.Handler that accepts AG-UI's
// RunAgentInput or the AI SDK's chat request, drives one conductor.Agent
// per thread and streams the run. A client that reconnects gets the
// committed events it missed, re-projected from the store (after its
// Last-Event-ID for AG-UI; the whole run in flight for the AI SDK), and
// then the live stream.
//
// wire imports contract, ledger, store and conductor of baton's packages.
package wire
