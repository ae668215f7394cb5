package agui

import (
	"slices"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// Projector projects one stream of baton events onto AG-UI. Message ids
// derive from the event data alone (the Seq the turn's deltas carry), so
// a live stream and a re-projection name a message the same way.
//
// A projector is not safe for concurrent use; use one per stream.
type Projector struct {
	t *track.Stream
	// steps are the subflow steps started and not finished, in order:
	// an AG-UI run may not finish with a step active, so a stream that
	// pauses inside one finishes it, and the next stream starts it again.
	steps []string
	// at is where the stream's client stands: the SSE id of the newest
	// frame projected, or the one it reconnected with (Reconnected).
	at string
	// anchor is the id of the newest event of the stream's own run
	// projected, frames or not, and sub counts the delegated runs'
	// events projected since: a delegated run's frame is "anchor+sub",
	// so that a client cut inside a delegated run resumes right after
	// the child's event it has, not again from the run's own event
	// before it.
	anchor string
	sub    int
	// stoppedIn, while Stopped projects, is the phase the store still has
	// the stopped run in.
	stoppedIn contract.Phase
	// replace, when set, is the message list Resume sends the client in
	// place of its own (see Rejoin).
	replace []Message
	// broken is set once an attempt of the model call in flight broke
	// after it streamed something, which the client holds and the
	// session never will; diverged says the newest event projected
	// completed a call that left the client so (see Diverged).
	broken, diverged bool
}

// NewProjector returns a projector for a stream of the session threadID
// (AG-UI's thread is baton's session).
func NewProjector(threadID string) *Projector {
	return &Projector{t: track.New(threadID)}
}

// InRun reports whether the projected stream is inside a run, and which.
func (p *Projector) InRun() (runID string, ok bool) { return p.t.RunID, p.t.Running }

// Resume returns what a client reconnecting mid-run needs before the rest
// of the run. A client opens a new AG-UI run for the reconnect, and a run
// starts with RUN_STARTED and starts whatever it continues, so a resumed
// stream whose run started earlier repeats RUN_STARTED, starts the active
// steps again, and starts the open messages and tool calls again under
// their own ids (reopen): a client that kept them ignores the repeated
// starts, and one that did not gets the rest of the run valid.
//
// RUN_STARTED carries where the client stands, which may be inside a
// model call: a client cut right after it reconnects from there, not
// from before deltas it has. A client whose model call died with the
// process that streamed it gets, before the rest, the messages the
// session holds (see Rejoin).
func (p *Projector) Resume() []Event {
	if !p.t.Running {
		return nil
	}
	out := []Event{{Type: RunStarted, ThreadID: p.t.SessionID, RunID: p.t.RunID, ID: p.at}}
	for _, name := range p.steps {
		out = append(out, Event{Type: StepStarted, StepName: name})
	}
	if p.replace != nil {
		out = append(out, Event{Type: MessagesSnapshot, Messages: p.replace})
		p.replace = nil
	}
	return append(out, p.reopen()...)
}

// reopen starts again what the model call in flight has open: the
// reasoning, the text, then the tool calls streaming their arguments, in
// the order they began and after the text, whose message carries them.
func (p *Projector) reopen() []Event {
	if !p.t.InTurn {
		return nil
	}
	var out []Event
	if p.t.Thinking.Open {
		out = append(out, p.startReasoning()...)
	}
	if p.t.Text.Open {
		out = append(out, p.startText())
	}
	for _, c := range p.t.Calls() {
		out = append(out, p.startCall(c))
	}
	return out
}

// Reconnected says that the stream's client reconnected with the SSE id
// last, once the events it has went through Project: a stream resumed
// from the store may have projected them under other ids (its deltas are
// cut from the stored reply), and the client's own id is what brings it
// back to the same place.
func (p *Projector) Reconnected(last string) {
	p.at, p.anchor, p.sub = last, last, 0
	if anchor, sub, ok := strings.Cut(last, "+"); ok {
		if n, err := strconv.Atoi(sub); err == nil {
			p.anchor, p.sub = anchor, n
		}
	}
}

// Holds reports whether the stream, once the events a reconnecting
// client has went through Project, stands inside its model call where
// the client's mark says: the same bytes of each part.
func (p *Projector) Holds(m track.Mark) bool { return p.t.Holds(m) }

// Rejoin brings the stream to where a reconnecting client with mark m
// stands inside the model call whose deltas carry seq. held is Holds(m):
// the stream numbers the call's attempts as the client does. Otherwise
// the client's call died with the process that streamed it, and the
// stream's events hold none of it: Resume then sends the messages the
// client has of the session as a MESSAGES_SNAPSHOT, which replaces its
// message list, so that the dead call's text and tool calls leave it
// (the session never held them), and the call made again streams afresh
// under the dead call's ids. s says what the session holds.
func (p *Projector) Rejoin(seq uint64, m track.Mark, held bool, s Session) {
	if held {
		p.t.Adopt(m)
		return
	}
	p.t.Restart(seq, m.Attempt)
	msgs := s.Messages(p.t.SessionID)
	// The client keeps its reasoning messages when a snapshot has none:
	// an empty one under the id the call made again reasons in takes
	// the dead call's off, and that call's reasoning fills it.
	if (m.Thinking >= 0 || m.Attempt > 0) && !slices.ContainsFunc(msgs, isReasoning) {
		msgs = append(msgs, Message{ID: p.reasoningID(), Role: "reasoning"})
	}
	p.replace = msgs
}

// Session is what a stream that a client rejoins knows of the session:
// the events the client has up to the newest committed one (Had), the
// events after them (Later), and the input the session holds queued
// (contract.RunSnapshot.Queued), read before the events, so that input
// applied meanwhile is in Later.
type Session struct {
	Had, Later []contract.RunEvent
	Queued     []contract.QueuedInput
}

// Messages returns the message list of the session threadID that a
// MESSAGES_SNAPSHOT sends a client: what it holds of Had, and the input
// it posted that Later reports taken or Queued holds (see withInput).
func (s Session) Messages(threadID string) []Message {
	msgs := withInput(Messages(threadID, s.Had), s.Later, s.Queued)
	if msgs == nil {
		// Sent, an empty list empties the client's.
		return []Message{}
	}
	return msgs
}

// Diverged reports whether the event projected last completed a model
// call that left the stream's client holding other messages than the
// stored turn: the text of an attempt that broke, a part whose stored
// text does not go on from what it streamed, or a call the turn does not
// hold as streamed (the runtime dropped or mended it). The projected
// events complete the turn as well as events can, but only a
// MESSAGES_SNAPSHOT of what the session holds (Session.Messages) takes
// the rest off the client. A call that streamed as stored, the common
// case, never diverges.
func (p *Projector) Diverged() bool { return p.diverged }

// startReasoning, startText and startCall open the parts of the model
// call in flight, live and again on a new run that continues them.
func (p *Projector) startReasoning() []Event {
	return []Event{
		{Type: ReasoningStart, MessageID: p.reasoningID()},
		{Type: ReasoningMessageStart, MessageID: p.reasoningID(), Role: "reasoning"},
	}
}

func (p *Projector) startText() Event {
	return Event{Type: TextMessageStart, MessageID: p.messageID(), Role: "assistant"}
}

func (p *Projector) startCall(c *track.Call) Event {
	return Event{Type: ToolCallStart, ToolCallID: c.ID, ToolCallName: c.Name, ParentMessageID: p.messageID()}
}

// finishSteps finishes the active steps, newest first, for a stream that
// ends while they run.
func (p *Projector) finishSteps() []Event {
	var out []Event
	for _, name := range slices.Backward(p.steps) {
		out = append(out, Event{Type: StepFinished, StepName: name})
	}
	return out
}

// Continue returns what a new AG-UI run of the baton run in flight needs
// first, after the client's stream of it ended (it sent a message since):
// what Resume sends, except that the messages the earlier stream left
// open are closed without a word: the next delta of one starts it again,
// under its own id, in this run, and the client adds to the message it
// holds. A tool call it left open cannot move to another id (its
// result names it), so Resume starts it again under its own: the client
// keeps the call it has, and the turn's completion sends the rest of its
// arguments and ends it in this run.
func (p *Projector) Continue() []Event {
	if !p.t.Running {
		return nil
	}
	p.t.Thinking.Open, p.t.Text.Open = false, false
	return p.Resume()
}

// Project returns the AG-UI events for one baton event, in order.
func (p *Projector) Project(ev contract.RunEvent) []Event {
	return p.project(ev)
}

// Stopped returns the events that end the stream of a run this process
// stopped driving, its store having failed or another process having
// taken its session over: ev is the run_faulted that says why, and phase
// the one the store still has the run in, which the state says rather
// than faulted, since whoever resumes the run goes on from there.
func (p *Projector) Stopped(ev contract.RunEvent, phase contract.Phase) []Event {
	p.stoppedIn = phase
	defer func() { p.stoppedIn = "" }()
	return p.project(ev)
}

func (p *Projector) project(ev contract.RunEvent) []Event {
	if ev.Kind == contract.EvSignalRejected {
		return nil
	}
	if len(ev.Subflow) > 0 {
		return p.childWithID(ev)
	}
	p.t.Saw(ev)
	p.diverged = false
	var out []Event
	switch {
	case track.IsDelta(ev.Kind):
		out = p.delta(ev)
	case ev.Kind == contract.EvModelRetry:
		out = p.retry(ev)
	default:
		p.t.Committed(ev)
		out = p.committed(ev)
	}
	id := p.eventID(ev)
	if id != "" {
		p.anchor, p.sub = id, 0
	}
	if len(out) == 0 {
		return nil
	}
	ts := int64(ev.At) / 1e6
	for i := range out {
		out[i].Timestamp = ts
	}
	if id != "" {
		out[len(out)-1].ID, p.at = id, id
	}
	return out
}

// childWithID projects a delegated run's event, its last frame under
// the id "anchor+sub" (see Projector.anchor), once the stream has an
// event of its own run to count from. Only the events the store keeps
// are counted (track.Stored), and only they carry an id: a stream
// re-projected from the store, once the thread was opened again, holds
// no others, and an id must name the same event in both.
func (p *Projector) childWithID(ev contract.RunEvent) []Event {
	out := p.child(ev)
	if !track.Stored(ev) {
		return out
	}
	p.sub++
	if len(out) > 0 && p.anchor != "" {
		id := p.anchor + "+" + strconv.Itoa(p.sub)
		out[len(out)-1].ID, p.at = id, id
	}
	return out
}

// eventID is the SSE id a client resumes from: "seq" after a committed
// event; "seq.delta:mark" after a streamed one, where the mark (see
// track.Mark) says how much of the model call the client has, for a
// resume that finds the deltas gone.
func (p *Projector) eventID(ev contract.RunEvent) string {
	switch {
	case ev.Kind == contract.EvLag:
		return ""
	case track.IsDelta(ev.Kind), ev.Kind == contract.EvModelRetry:
		id := strconv.FormatUint(ev.Seq, 10) + "." + strconv.FormatUint(uint64(ev.Delta), 10)
		if m := p.t.Mark(); m != "" {
			id += ":" + m
		}
		return id
	}
	return strconv.FormatUint(ev.Seq, 10)
}

func (p *Projector) messageID() string   { return "m" + p.t.TurnID() }
func (p *Projector) reasoningID() string { return "r" + p.t.TurnID() }

// retry closes what the broken attempt opened, so that the next attempt
// opens messages of its own, and passes the notice on.
func (p *Projector) retry(ev contract.RunEvent) []Event {
	p.broken = p.broken || p.streamed()
	out := p.closeAll()
	if !p.t.InTurn {
		p.t.BeginTurn(ev.Seq)
	}
	p.t.Retry()
	c, _ := p.custom(ev)
	return append(out, c)
}

func (p *Projector) delta(ev contract.RunEvent) []Event {
	p.t.BeginTurn(ev.Seq)
	switch ev.Kind {
	case contract.EvTextDelta:
		out := p.closeThinking()
		if p.t.Text.Start() {
			out = append(out, p.startText())
		}
		p.t.Text.Append(ev.Text)
		if ev.Text != "" {
			out = append(out, Event{Type: TextMessageContent, MessageID: p.messageID(), Delta: ev.Text})
		}
		return out
	case contract.EvThinkingDelta:
		var out []Event
		if p.t.Thinking.Start() {
			out = p.startReasoning()
		}
		p.t.Thinking.Append(ev.Text)
		if ev.Text != "" {
			out = append(out, Event{Type: ReasoningMessageContent, MessageID: p.reasoningID(), Delta: ev.Text})
		}
		return out
	}
	return p.callDelta(ev)
}

func (p *Projector) callDelta(ev contract.RunEvent) []Event {
	out := p.closeThinking()
	c, first := p.t.Call(ev)
	if first {
		out = append(out, p.startCall(c))
	}
	c.AppendArgs(ev.Text)
	if ev.Text != "" {
		out = append(out, Event{Type: ToolCallArgs, ToolCallID: c.ID, Delta: ev.Text})
	}
	return out
}

func (p *Projector) closeThinking() []Event {
	if !p.t.Thinking.Open {
		return nil
	}
	p.t.Thinking.Open = false
	return []Event{
		{Type: ReasoningMessageEnd, MessageID: p.reasoningID()},
		{Type: ReasoningEnd, MessageID: p.reasoningID()},
	}
}

// streamed reports whether the model call's attempt in flight streamed
// anything to the client.
func (p *Projector) streamed() bool {
	return p.t.InTurn && (p.t.Thinking.Sent || p.t.Text.Sent || len(p.t.Calls()) > 0)
}

// closeAll ends whatever the stream left open, for a run that ends or a
// model call that is retried mid-turn.
func (p *Projector) closeAll() []Event {
	if !p.t.InTurn {
		return nil
	}
	out := p.closeThinking()
	if p.t.Text.Open {
		p.t.Text.Open = false
		out = append(out, Event{Type: TextMessageEnd, MessageID: p.messageID()})
	}
	for _, c := range p.t.Calls() {
		out = append(out, Event{Type: ToolCallEnd, ToolCallID: c.ID})
	}
	return out
}

// Pause ends the AG-UI run where the baton run waits for the client: a
// question or an approval it answers with a tool message, which starts
// the next AG-UI run of the same baton run. What the stream left open is
// closed, the state says what the run waits in, and RUN_FINISHED ends it.
func (p *Projector) Pause(phase contract.Phase) []Event {
	if !p.t.Running {
		return nil
	}
	out := append(p.closeAll(), p.finishSteps()...)
	p.t.EndTurn()
	out = append(out,
		Event{Type: StateSnapshot, Snapshot: runState{SessionID: p.t.SessionID, RunID: p.t.RunID, Phase: string(phase)}},
		Event{Type: RunFinished, ThreadID: p.t.SessionID, RunID: p.t.RunID})
	return out
}
