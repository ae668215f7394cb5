package track

import "github.com/batonrt/baton/contract"

// StreamedOtherText reports whether the attempt in flight streamed
// reasoning or text that turn, its stored reply, does not go on from.
// How its calls differ is each protocol's to judge: what a client can
// take back differs.
func (s *Stream) StreamedOtherText(turn contract.Turn) bool {
	if _, ok := s.Thinking.Rest(ThinkingText(turn)); s.Thinking.Sent && !ok {
		return true
	}
	_, ok := s.Text.Rest(turn.Text())
	return s.Text.Sent && !ok
}
