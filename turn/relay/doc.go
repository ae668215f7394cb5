// Package relay drives one streamed reply from an SDK's server-sent-event
// stream through a provider's decoder to the caller: decoded chunks as they
// arrive, then the decoder's tail (usage, stop), or the failure that ended
// the stream classified by httpfail. The stream is closed however the
// caller stops. SDK is a provider's whole Stream method over such an SDK,
// given how to build the request, open the stream and decode it; it
// sanitizes the history (turn.Sanitize) as the driver does. Response
// helps a decoder say which reply it decodes (turn.ChunkResponse) once,
// ahead of the reply's first chunk. It imports contract, turn and
// turn/httpfail only.
package relay
