package aisdk

import (
	"slices"
	"strings"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/internal/track"
)

// UIMessage is a message as the AI SDK's chat holds it (its UIMessage
// type): what a client coming back to a thread starts from.
type UIMessage struct {
	ID       string   `json:"id"`
	Role     string   `json:"role"`
	Metadata any      `json:"metadata,omitempty"`
	Parts    []UIPart `json:"parts"`
}

// UIPart is one part of a UIMessage: text, reasoning, step-start, a tool
// call (tool-{name}) or a data-baton-* part. Type says which fields are
// set; the JSON field names are the SDK's.
type UIPart struct {
	Type       string    `json:"type"`
	ID         string    `json:"id,omitempty"`
	Text       string    `json:"text,omitempty"`
	State      string    `json:"state,omitempty"`
	ToolCallID string    `json:"toolCallId,omitempty"`
	Input      any       `json:"input,omitempty"`
	RawInput   any       `json:"rawInput,omitempty"`
	Output     *string   `json:"output,omitempty"`
	ErrorText  string    `json:"errorText,omitempty"`
	Approval   *Approval `json:"approval,omitempty"`
	Data       any       `json:"data,omitempty"`
}

// Approval is a tool part's approval request; its id is the call's.
type Approval struct {
	ID string `json:"id"`
}

// Messages returns a thread's conversation as the chat's messages: for
// each run the user's input, then the assistant message the run's UI
// message stream builds, part for part and under the same id, as the
// chat would have built it from the stream. A steer or follow-up the run
// took stays where it took it, as the stream's data part. events are
// the session's, from its start; a run in flight ends with what it has
// so far.
func Messages(chatID string, events []contract.RunEvent) []UIMessage {
	return Fold(chatID, events).Messages
}

// Conversation is what a chat holds once it has taken a thread's
// streams: its messages, and the error the last one ended with.
type Conversation struct {
	Messages []UIMessage
	// Error is the errorText of the error chunk the thread's last run
	// ended with, "" when it did not fault with one: the chat does not
	// keep it in a message, it shows it as its error, until the next run.
	Error string
}

// Fold returns a thread's conversation: its Messages, and the error its
// last run faulted with. Of what reached the live stream only (deltas,
// retry notices), it keeps what came after the newest stored event, the
// model call in flight: a completed turn is what the session stores,
// not what its attempts streamed.
func Fold(chatID string, events []contract.RunEvent) Conversation {
	p := NewProjector(chatID)
	f := folder{out: []UIMessage{}}
	for _, ev := range asStored(events) {
		if ev.Kind == contract.EvRunStarted && len(ev.Subflow) == 0 {
			f.err = ""
			if ev.Text != "" {
				f.out = append(f.out, UIMessage{ID: ev.RunID + "-input", Role: "user", Parts: []UIPart{{Type: "text", Text: ev.Text}}})
				f.msg = nil
			}
		}
		for _, c := range p.Project(ev) {
			f.chunk(c)
		}
	}
	return Conversation{Messages: f.out, Error: f.err}
}

// folder builds messages from chunks, as the SDK's processUIMessageStream
// does.
type folder struct {
	out []UIMessage
	// msg is the assistant message chunks go to, the last of out.
	msg *UIMessage
	// open holds the text and reasoning parts still streaming, by chunk id.
	open map[string]int
	// err is the errorText of the error chunk of the run folded last.
	err string
}

func (f *folder) chunk(c Chunk) {
	if c.Type == Error {
		f.err = c.ErrorText
		return
	}
	if c.Type == Start {
		f.start(c)
		return
	}
	if f.msg == nil {
		return
	}
	switch c.Type {
	case Finish, MessageMetadata:
		if c.MessageMetadata != nil {
			f.msg.Metadata = c.MessageMetadata
		}
	case StartStep:
		f.add(UIPart{Type: "step-start"})
	case FinishStep:
		clear(f.open)
	case TextStart, ReasoningStart:
		f.open[c.ID] = len(f.msg.Parts)
		part := UIPart{Type: "text", State: "streaming"}
		if c.Type == ReasoningStart {
			part = UIPart{Type: "reasoning", ID: c.ID, State: "streaming"}
		}
		f.add(part)
	case TextDelta, ReasoningDelta:
		if i, ok := f.open[c.ID]; ok {
			f.msg.Parts[i].Text += c.Delta
		}
	case TextEnd, ReasoningEnd:
		if i, ok := f.open[c.ID]; ok {
			f.msg.Parts[i].State = "done"
			delete(f.open, c.ID)
		}
	default:
		f.tool(c)
	}
}

// start opens the assistant message a start chunk names, unless chunks
// already go to it.
func (f *folder) start(c Chunk) {
	if f.msg == nil || c.MessageID != "" && c.MessageID != f.msg.ID {
		f.out = append(f.out, UIMessage{ID: c.MessageID, Role: "assistant", Parts: []UIPart{}})
		f.msg = &f.out[len(f.out)-1]
		f.open = map[string]int{}
	}
	if c.MessageMetadata != nil {
		f.msg.Metadata = c.MessageMetadata
	}
}

func (f *folder) add(p UIPart) { f.msg.Parts = append(f.msg.Parts, p) }

// tool applies a tool or data chunk.
func (f *folder) tool(c Chunk) {
	if strings.HasPrefix(c.Type, "data-") {
		if !c.Transient {
			f.data(c)
		}
		return
	}
	part := f.call(c)
	if part == nil {
		return
	}
	switch c.Type {
	case ToolInputStart:
		part.State = "input-streaming"
	case ToolInputAvailable:
		part.State, part.Input = "input-available", c.Input
	case ToolInputError:
		part.State, part.RawInput, part.ErrorText = "output-error", c.Input, c.ErrorText
	case ToolApprovalRequest:
		part.State, part.Approval = "approval-requested", &Approval{ID: c.ApprovalID}
	case ToolOutputAvail:
		part.State, part.Output = "output-available", c.Output
	case ToolOutputError:
		part.State, part.ErrorText = "output-error", c.ErrorText
	case ToolOutputDenied:
		part.State = "output-denied"
	}
}

// call returns the part of the chunk's tool call, adding it when the
// chunk opens one; nil for a chunk of no call. A call's input goes to the
// part of the step it is in, its approval and output to its newest part:
// call ids are unique within a turn only.
func (f *folder) call(c Chunk) *UIPart {
	if c.ToolCallID == "" {
		return nil
	}
	opens := c.Type == ToolInputStart || c.Type == ToolInputAvailable || c.Type == ToolInputError
	for i := len(f.msg.Parts) - 1; i >= 0; i-- {
		p := &f.msg.Parts[i]
		if p.ToolCallID == c.ToolCallID {
			return p
		}
		if opens && p.Type == "step-start" {
			break
		}
	}
	if !opens {
		return nil
	}
	f.add(UIPart{Type: "tool-" + c.ToolName, ToolCallID: c.ToolCallID})
	return &f.msg.Parts[len(f.msg.Parts)-1]
}

// data adds a data part, or replaces the one of the same type and id.
func (f *folder) data(c Chunk) {
	for i, p := range f.msg.Parts {
		if c.ID != "" && p.Type == c.Type && p.ID == c.ID {
			f.msg.Parts[i].Data = c.Data
			return
		}
	}
	f.add(UIPart{Type: c.Type, ID: c.ID, Data: c.Data})
}

// asStored returns events without what the live stream alone had
// (track.Stored) of model calls that later completed: their turns are
// what the session stores. The deltas of a call that never completed,
// in flight or cut short by the run's end, stay: they are all the
// client has of it.
func asStored(events []contract.RunEvent) []contract.RunEvent {
	drop := make([]bool, len(events))
	dropping, some := false, false
	for i, ev := range slices.Backward(events) {
		if len(ev.Subflow) > 0 {
			continue
		}
		switch {
		case ev.Kind == contract.EvTurnCompleted:
			dropping = true
		case ev.Kind == contract.EvRunStarted, ev.Kind == contract.EvRunSettled, ev.Kind == contract.EvRunFaulted:
			dropping = false
		case dropping && !track.Stored(ev):
			drop[i], some = true, true
		}
	}
	if !some {
		return events
	}
	out := make([]contract.RunEvent, 0, len(events))
	for i, ev := range events {
		if !drop[i] {
			out = append(out, ev)
		}
	}
	return out
}
