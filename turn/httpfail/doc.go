// Package httpfail classifies what ended a provider's HTTP call or stream
// into a *turn.ProviderError: the response status, Retry-After and
// retry-after-ms headers, a cancelled or expired context, a dropped
// connection, and the kind named by an error frame inside the stream. Each
// provider supplies only what is its own: its name for messages and how to
// read its API's error frame and error responses. The error's text keeps
// what the server said but not the key the request sent, which servers
// may quote back, nor a base URL's password. It imports contract and turn
// only.
package httpfail
