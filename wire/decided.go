package wire

import (
	"context"
	"strings"

	"github.com/batonrt/baton/contract"
)

// decided is what a post's steer read of its thread before it applied
// the decisions the post carried, when the run they let go on then
// ended before the post's message could steer it: the events the client
// had, the log's position end after them, and the calls it answered
// (see streamer.answered).
type decided struct {
	events   []contract.RunEvent
	end      int
	answered map[string]bool
}

// decidedFirst readies a stream of the run a post's message starts to
// show first the rest of the run the post's decisions resumed, as a
// steered stream would have shown it: the client holds that run up to
// its decided calls, and nothing else sends it their results or the
// run's reply. The run is reopened as for a message the client sent
// since (see carryOn), and its end does not end the stream, which goes
// on, in the same message, with then: the run the post's message starts
// or steered.
func (s *streamer) decidedFirst(d *decided, then following) error {
	s.answered = d.answered
	s.had(d.events)
	s.pos = d.end
	id, running := s.inRun()
	if !running {
		s.follows = then
		return nil
	}
	s.follows = following{run: id, via: viaDecided, then: &then}
	s.chained = true
	s.announceChain(then)
	if err := s.reopen(id); err != nil {
		return err
	}
	if s.ui == nil {
		return nil
	}
	s.ui.Chain()
	for id, question := range d.answered {
		if strings.Contains(id, "/") {
			// A delegated run's call: its part is in the client's earlier
			// message (a call of the run's own gets one anyway).
			s.ui.Decided(id, question)
		}
	}
	return nil
}

// steeredAfter streams the rest of the run in flight in d's events,
// then steered, the run that took the post's message, to its end or its
// next pause, in one message as decidedFirst does. It is for a post
// whose decisions let its run go on to its end before its message could
// steer it, the message then steering the run after it (another
// post's); and for a message whose steer returned with another run in
// flight than the one it found, which may have taken the message and
// ended: the client is then shown that run's rest, which may hold the
// reply to its message, rather than none of it.
func (s *streamer) steeredAfter(ctx context.Context, d *decided, steered string) error {
	err := s.decidedFirst(d, following{run: steered, via: viaStarting})
	if err == nil {
		err = s.follow(ctx, nil)
	}
	if err == nil {
		err = s.done()
	}
	return err
}
