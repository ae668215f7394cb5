// Package sse reads Server-Sent Events, the text/event-stream format of
// the WHATWG HTML standard, for the HTTP providers: it is their one
// parser of the format, so that every provider splits lines (LF, CRLF or
// a lone CR), drops a leading byte order mark, skips comments, reads
// fields with or without a colon and with one leading space stripped,
// ignores id and retry, and dispatches an event at a blank line (never
// one a stream ends in the middle of) alike, with a bound on what a line
// or an event may hold.
//
// Reader gives the events themselves, pulled one at a time with its
// context, as an SDK pulls its body's bytes. Body passes them on, one
// at a time and in the format's plainest form, to an SDK's own decoder,
// after a provider's Filter has seen each: the place for what is the
// provider's own (a "[DONE]" marker, an event named "error", an event
// relayed without its name). A provider installs it with Middleware.
//
// It imports only the standard library, nothing of ours.
package sse
