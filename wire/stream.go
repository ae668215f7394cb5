package wire

import (
	"context"
	"net/http"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
	"github.com/batonrt/baton/wire/internal/sse"
	"github.com/batonrt/baton/wire/internal/track"
)

// feed carries one stream's live events from the agent's subscriber
// goroutine to the request's goroutine. When the client is gone, pushes
// return at once and the request's deferred unsubscribe removes the feed.
type feed struct {
	ctx context.Context
	ch  chan contract.RunEvent
}

func newFeed(ctx context.Context) *feed {
	return &feed{ctx: ctx, ch: make(chan contract.RunEvent, 256)}
}

func (f *feed) push(ev contract.RunEvent) {
	select {
	case f.ch <- ev:
	case <-f.ctx.Done():
	}
}

// streamer writes one response: it projects, encodes and deduplicates
// (a resumed stream sees some events both from the store and live). It
// writes exactly one of: AG-UI over SSE, the AI SDK's UI message stream
// over SSE, or baton's NDJSON events.
type streamer struct {
	r       Runner
	proj    *agui.Projector
	ui      *aisdk.Projector
	sse     *sse.Writer
	nd      *ndjsonWriter
	last    uint64 // newest committed Seq written
	runID   string
	ended   bool
	started bool
	// deltaSeq is the Seq of the deltas whose first one this stream
	// wrote; a UI stream skips a turn's deltas it joined midway, since
	// the turn's completion sends the whole turn instead.
	deltaSeq uint64
}

func newStreamer(w http.ResponseWriter, req *http.Request, r Runner, threadID string, proto Protocol) *streamer {
	s := &streamer{r: r, proj: agui.NewProjector(threadID)}
	h := w.Header()
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	switch {
	case strings.Contains(req.Header.Get("Accept"), "application/x-ndjson"):
		h.Set("Content-Type", "application/x-ndjson")
		s.nd = &ndjsonWriter{w: w}
	case proto == ProtocolAISDK:
		h.Set("Content-Type", "text/event-stream")
		h.Set(aisdk.StreamHeader, aisdk.StreamVersion)
		s.ui = aisdk.NewProjector(threadID)
		s.sse = sse.New(w)
	default:
		h.Set("Content-Type", "text/event-stream")
		s.sse = sse.New(w)
	}
	return s
}

// silent projects an event the client already has, for the state it
// leaves in the projector.
func (s *streamer) silent(ev contract.RunEvent) {
	if s.ui != nil {
		s.ui.Project(ev)
		return
	}
	s.proj.Project(ev)
}

func (s *streamer) inRun() (string, bool) {
	if s.ui != nil {
		return s.ui.InRun()
	}
	return s.proj.InRun()
}

// done ends a stream whose run ended: the UI message stream closes with
// [DONE]; the others need nothing.
func (s *streamer) done() error {
	if s.ui == nil {
		return nil
	}
	return s.sse.WriteEvent("", "", []byte("[DONE]"))
}

func (s *streamer) writeUI(chunks []aisdk.Chunk) error {
	for _, c := range chunks {
		if err := s.sse.WriteJSON("", c); err != nil {
			return err
		}
	}
	return nil
}

// emit writes one baton event unless the stream already has it.
func (s *streamer) emit(ev contract.RunEvent) error {
	switch {
	case ev.Kind == contract.EvSignalRejected:
		return nil
	case len(ev.Subflow) > 0:
		// A delegated run's events are numbered in their own run: they
		// neither advance the stream's position nor are deduplicated by it.
	case ev.Kind == contract.EvLag:
	case track.IsDelta(ev.Kind), ev.Kind == contract.EvModelRetry:
		// A retry notice comes from the turn driver numbered like the
		// deltas, after the newest committed event.
		if ev.Seq < s.last || s.joinedMidTurn(ev) {
			return nil
		}
	default:
		if ev.Seq <= s.last && s.started {
			return nil
		}
		s.last, s.started = ev.Seq, true
	}
	if ev.Kind == contract.EvRunStarted && s.runID == "" {
		s.runID = ev.RunID
	}
	if (ev.Kind == contract.EvRunSettled || ev.Kind == contract.EvRunFaulted) && ev.RunID == s.runID {
		s.ended = true
	}
	switch {
	case s.nd != nil:
		return s.nd.writeEvent(ev)
	case s.ui != nil:
		return s.writeUI(s.ui.Project(ev))
	}
	return s.writeAGUI(s.proj.Project(ev))
}

func (s *streamer) joinedMidTurn(ev contract.RunEvent) bool {
	if s.ui == nil {
		return false
	}
	if ev.Delta == 1 {
		s.deltaSeq = ev.Seq
	}
	return s.deltaSeq != ev.Seq
}

func (s *streamer) writeAGUI(events []agui.Event) error {
	if s.sse == nil {
		return nil
	}
	for _, a := range events {
		if err := s.sse.WriteJSON(a.ID, a); err != nil {
			return err
		}
	}
	return nil
}

// fill writes the committed events the stream missed, from the store.
func (s *streamer) fill(ctx context.Context) error {
	events, err := s.r.EventsSince(ctx, s.last)
	if err != nil {
		return err
	}
	for _, ev := range events {
		if err := s.emit(ev); err != nil {
			return err
		}
	}
	return nil
}

// follow writes live events until the run ends, the client leaves or the
// run returns (done). A lag notice is repaired from the store.
func (s *streamer) follow(ctx context.Context, f *feed, done <-chan struct{}) error {
	for !s.ended {
		select {
		case ev := <-f.ch:
			if ev.Kind == contract.EvLag {
				if err := s.fill(ctx); err != nil {
					return err
				}
				continue
			}
			if err := s.emit(ev); err != nil {
				return err
			}
		case <-done:
			return s.drain(ctx, f)
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}

// drainGrace bounds how long a stream whose run returned waits for the
// run's last events to come through its subscription. They always come
// (the hub never drops a run's end) unless the agent was closed meanwhile;
// only then is the rest read from the store.
const drainGrace = 2 * time.Second

// drain writes the run's events still on their way after the run
// returned, up to the run's end.
func (s *streamer) drain(ctx context.Context, f *feed) error {
	grace := time.NewTimer(drainGrace)
	defer grace.Stop()
	for !s.ended {
		if s.r.Snapshot().Seq <= s.last {
			// The stream has every committed event: nothing more comes.
			return nil
		}
		select {
		case ev := <-f.ch:
			if ev.Kind == contract.EvLag {
				if err := s.fill(ctx); err != nil {
					return err
				}
				continue
			}
			if err := s.emit(ev); err != nil {
				return err
			}
		case <-grace.C:
			if err := s.fill(ctx); err != nil {
				return err
			}
			s.ended = true
		case <-ctx.Done():
			return ctx.Err()
		}
	}
	return nil
}
