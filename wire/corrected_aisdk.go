package wire

import "github.com/batonrt/baton/wire/aisdk"

// correctUI puts in the correction that chunks end the run's message
// with (the stream gave the client parts the session does not store) the
// run's message as GET .../messages has it, which the client puts in
// place of its own (aisdk.Correction). Read only then, the common case
// costs nothing. A thread that cannot be read leaves the correction
// without a message: the client reads the thread's messages itself.
func (s *streamer) correctUI(chunks []aisdk.Chunk) {
	if s.t.r == nil || !aisdk.NeedsStored(chunks) {
		return
	}
	events, _, err := s.t.history(s.ctx)
	if err != nil {
		return
	}
	aisdk.Correct(chunks, s.t.id, events)
}
