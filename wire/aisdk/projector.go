package aisdk

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// Projector projects one stream of baton events onto the UI message
// stream. Part ids derive from the event data alone (the Seq the turn's
// deltas carry), so a live stream and a re-projection name a part the
// same way. The stream's closing `data: [DONE]` is the transport's job.
//
// A projector is not safe for concurrent use; use one per stream.
type Projector struct {
	t        *track.Stream
	stepOpen bool
	// known holds the tool calls the client has a part for.
	known map[string]bool
	// denied holds the calls whose approval was denied, until their
	// result comes.
	denied map[string]bool
	// asked holds the delegated runs' calls (by track.SubflowCallID) the
	// client has a part for, an approval or a question, until the part
	// has its output.
	asked map[string]bool
	// stoppedIn, while Stopped projects, is the phase the store still has
	// the stopped run in.
	stoppedIn contract.Phase
	// msgID is the id of the message the stream sends the run in.
	msgID string
	// chained says the next run's start goes on in msgID (see Chain).
	chained bool
	// decided holds the delegated runs' calls the client answered in a
	// message before the stream's, true for questions (see Decided).
	decided map[string]bool
	// diverged says the run's message holds parts the session does not
	// store, which the message's end corrects (see Correction).
	diverged bool
	// stop is why the model ended the run's newest reply, which says why
	// a settled run's message finished.
	stop contract.StopReason
}

// NewProjector returns a projector for a stream of the session chatID
// (the AI SDK's chat id).
func NewProjector(chatID string) *Projector {
	return &Projector{t: track.New(chatID), known: map[string]bool{}, denied: map[string]bool{}, asked: map[string]bool{}, decided: map[string]bool{}}
}

// InRun reports whether the projected stream is inside a run, and which.
func (p *Projector) InRun() (runID string, ok bool) { return p.t.RunID, p.t.Running }

// Project returns the chunks for one baton event, in order.
func (p *Projector) Project(ev contract.RunEvent) []Chunk {
	if ev.Kind == contract.EvSignalRejected {
		return nil
	}
	if len(ev.Subflow) > 0 {
		return p.child(ev)
	}
	p.t.Saw(ev)
	if track.IsDelta(ev.Kind) {
		return p.delta(ev)
	}
	p.t.Committed(ev)
	return p.committed(ev)
}

// Stopped returns the chunks that end the stream of a run this process
// stopped driving, its store having failed or another process having
// taken its session over: ev is the run_faulted that says why, and phase
// the one the store still has the run in, which the finish's metadata
// says rather than faulted, since whoever resumes the run goes on from
// there.
func (p *Projector) Stopped(ev contract.RunEvent, phase contract.Phase) []Chunk {
	p.stoppedIn = phase
	defer func() { p.stoppedIn = "" }()
	return p.Project(ev)
}

func (p *Projector) textID() string      { return "text-" + p.t.TurnID() }
func (p *Projector) reasoningID() string { return "reasoning-" + p.t.TurnID() }

// beginTurn opens a step for a model call, closing the previous call's.
func (p *Projector) beginTurn(seq uint64) []Chunk {
	if !p.t.BeginTurn(seq) {
		return nil
	}
	out := p.finishStep()
	p.stepOpen = true
	return append(out, Chunk{Type: StartStep})
}

func (p *Projector) finishStep() []Chunk {
	if !p.stepOpen {
		return nil
	}
	p.stepOpen = false
	return []Chunk{{Type: FinishStep}}
}

func (p *Projector) delta(ev contract.RunEvent) []Chunk {
	out := p.beginTurn(ev.Seq)
	switch ev.Kind {
	case contract.EvTextDelta:
		out = append(out, p.closeThinking()...)
		if p.t.Text.Start() {
			out = append(out, Chunk{Type: TextStart, ID: p.textID()})
		}
		p.t.Text.Append(ev.Text)
		if ev.Text != "" {
			out = append(out, Chunk{Type: TextDelta, ID: p.textID(), Delta: ev.Text})
		}
		return out
	case contract.EvThinkingDelta:
		if p.t.Thinking.Start() {
			out = append(out, Chunk{Type: ReasoningStart, ID: p.reasoningID()})
		}
		p.t.Thinking.Append(ev.Text)
		if ev.Text != "" {
			out = append(out, Chunk{Type: ReasoningDelta, ID: p.reasoningID(), Delta: ev.Text})
		}
		return out
	}
	return append(out, p.callDelta(ev)...)
}

func (p *Projector) callDelta(ev contract.RunEvent) []Chunk {
	out := p.closeThinking()
	c, first := p.t.Call(ev)
	if first {
		out = append(out, p.startCall(c))
	}
	c.AppendArgs(ev.Text)
	if ev.Text != "" {
		out = append(out, Chunk{Type: ToolInputDelta, ToolCallID: c.ID, InputTextDelta: ev.Text})
	}
	return out
}

// startCall opens the part of a streamed call, live and again in a new
// message that continues it.
func (p *Projector) startCall(c *track.Call) Chunk {
	p.known[c.ID] = true
	return Chunk{Type: ToolInputStart, ToolCallID: c.ID, ToolName: c.Name}
}

func (p *Projector) closeThinking() []Chunk {
	if !p.t.Thinking.Open {
		return nil
	}
	p.t.Thinking.Open = false
	return []Chunk{{Type: ReasoningEnd, ID: p.reasoningID()}}
}

func (p *Projector) closeText() []Chunk {
	if !p.t.Text.Open {
		return nil
	}
	p.t.Text.Open = false
	return []Chunk{{Type: TextEnd, ID: p.textID()}}
}

// abandonAttempt ends what a model call's broken attempt opened before
// the driver retries it: the protocol cannot take text back, so its parts
// are closed as they are, a half-streamed call becomes an input error, and
// the retry streams into new parts.
func (p *Projector) abandonAttempt() []Chunk {
	if !p.t.InTurn {
		return nil
	}
	p.diverged = p.diverged || p.attemptStreamed()
	out := append(p.closeThinking(), p.closeText()...)
	for _, c := range p.t.Calls() {
		delete(p.known, c.ID)
		out = append(out, Chunk{Type: ToolInputError, ToolCallID: c.ID, ToolName: c.Name, Input: c.Args(), ErrorText: "the model call was retried"})
	}
	p.t.Retry()
	return out
}

// closeAll ends whatever the stream left open, for a run that ends
// mid-turn: a call whose input never completed becomes an input error, so
// the client's part does not stay streaming for ever.
func (p *Projector) closeAll() []Chunk {
	var out []Chunk
	if p.t.InTurn {
		out = append(p.closeThinking(), p.closeText()...)
		for _, c := range p.t.Calls() {
			out = append(out, Chunk{Type: ToolInputError, ToolCallID: c.ID, ToolName: c.Name, Input: c.Args(), ErrorText: "run ended before the call was complete"})
		}
		p.t.EndTurn()
	}
	return append(out, p.finishStep()...)
}

// Resume returns what a stream continuing the run's message needs first:
// its start chunk, naming the message the client already holds.
func (p *Projector) Resume() []Chunk {
	if !p.t.Running {
		return nil
	}
	p.msgID = p.t.RunID
	return []Chunk{{Type: Start, MessageID: p.t.RunID, MessageMetadata: Metadata{SessionID: p.t.SessionID, RunID: p.t.RunID}}}
}

// Pause ends the stream where the run waits for the client: a question
// or an approval whose tool part it answers with addToolOutput. The
// message finishes with what the run waits in; the client's answer sends
// it back, and the run's next stream continues it.
func (p *Projector) Pause(phase contract.Phase) []Chunk {
	if !p.t.Running {
		return nil
	}
	out := p.closeAll()
	return append(out, Chunk{Type: Finish, FinishReason: "tool-calls", MessageMetadata: Metadata{SessionID: p.t.SessionID, RunID: p.t.RunID, Phase: string(phase), Baton: p.correction()}})
}

// Continue returns what a new stream of the run in flight needs first
// when the client holds no message of it to continue (it sent a message
// of its own since): the start of a new message, messageID. The parts the
// earlier stream left open are closed without a word, so that what comes
// next opens parts of the new message. A tool call whose input is
// streaming gets a part in the new message, with the input so far, since
// the client refuses input deltas for a call the message has not started.
func (p *Projector) Continue(messageID string) []Chunk {
	if !p.t.Running {
		return nil
	}
	p.t.Thinking.Open, p.t.Text.Open, p.stepOpen = false, false, false
	clear(p.known)
	clear(p.asked)
	p.msgID = messageID
	out := []Chunk{{Type: Start, MessageID: messageID, MessageMetadata: Metadata{SessionID: p.t.SessionID, RunID: p.t.RunID}}}
	if !p.t.InTurn {
		return out
	}
	for _, c := range p.t.Calls() {
		out = append(out, p.startCall(c))
		if c.Args() != "" {
			out = append(out, Chunk{Type: ToolInputDelta, ToolCallID: c.ID, InputTextDelta: c.Args()})
		}
	}
	return out
}

// Chain says that the stream goes on, once the run in flight ends, with
// the run started after it, in the same message: the AI SDK's Chat
// builds one message of a response, and a start naming another message
// would have it add a second one, holding the parts of both. The next
// run's start then carries its metadata only.
func (p *Projector) Chain() {
	p.chained = true
}

// Chained reports whether the next run's start goes on in the message
// the stream sends (see Chain).
func (p *Projector) Chained() bool { return p.chained }

// Decided says that the client answered the delegated run's call id (by
// track.SubflowCallID) in a message before the one the stream sends: a
// question, whose part there holds the answer, or an approval, whose
// part there waits in approval-responded. The message has no part for
// it, and the client refuses an output for a part the message lacks:
// an answer then goes as data only, and an approved or denied call's
// result comes in a part of its own, with the call's input first, so
// that the client sees how the call it decided ended.
func (p *Projector) Decided(id string, question bool) {
	p.decided[id] = question
}
