// Package relay drives one streamed reply from an SDK's server-sent-event
// stream through a provider's decoder to the caller: decoded chunks as they
// arrive, then the decoder's tail (usage, stop), or the failure that ended
// the stream classified by httpfail. The stream is closed however the
// caller stops. It imports turn and provider/internal/httpfail only.
package relay
