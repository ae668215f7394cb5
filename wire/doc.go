// Package wire serves baton agents to clients over HTTP. Its Handler
// keeps a registry of threads (one agent per thread id, created on first
// use) and speaks two protocols per request: AG-UI (wire/agui) and the
// Vercel AI SDK's UI message stream (wire/aisdk), both over Server-Sent
// Events, or baton's own events as NDJSON. A client that reconnects gets
// what it missed, re-projected from the store, and then the live stream.
// A client's message ids are kept with the session's turns, so a message
// posted again (a retry, the AI SDK chat's regenerate) gets the stream
// of the run it started rather than a second run, after a restart too.
// A handler may serve several users (HandlerOptions.Users), each with a
// bearer token and threads of their own.
// Several handlers over one shared store hand each other the requests for
// the threads they drive (HandlerOptions.Owner), so a client may talk to
// any of them. Drain shuts a handler down for a restart without ending
// the runs in flight: they finish, or are left in flight in the store for
// the next handler, their clients reconnecting.
//
// wire imports contract, store, conductor and internal/redact of baton's
// packages.
package wire
