package agui

import (
	"strings"

	"github.com/batonrt/baton/contract"
)

// Message is a message of AG-UI's message list, as a MESSAGES_SNAPSHOT
// carries it: a user's input, an assistant's reply with its tool calls,
// a tool's result or a reply's reasoning.
type Message struct {
	ID         string     `json:"id"`
	Role       string     `json:"role"`
	Content    string     `json:"content"`
	ToolCalls  []ToolCall `json:"toolCalls,omitempty"`
	ToolCallID string     `json:"toolCallId,omitempty"`
}

// ToolCall is an assistant message's tool call.
type ToolCall struct {
	ID       string   `json:"id"`
	Type     string   `json:"type"`
	Function Function `json:"function"`
}

// Function is what a tool call calls: the tool and its arguments.
type Function struct {
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// Messages returns the messages a client holds once it has taken a
// thread's stream of events, under the ids the projector gives them, as
// the official client builds them from the projected events. The
// client's own input is named by the ids it sent (contract.Turn.ClientID,
// which run_started, steering_applied and follow_up_applied report);
// input without one is not the client's, and it does not hold it. A part
// the projector completed in a message of its own ("-rest", "-final")
// is folded into its reply's message, whose whole text it is.
func Messages(threadID string, events []contract.RunEvent) []Message {
	p := NewProjector(threadID)
	f := folder{at: map[string]int{}}
	for _, ev := range events {
		own := len(ev.Subflow) == 0
		if own {
			f.input(ev)
		}
		if own && ev.Kind == contract.EvModelRetry {
			f.drop()
		}
		for _, e := range p.Project(ev) {
			f.event(e)
		}
		if own && ev.Delta == 0 && ev.Kind != contract.EvLag {
			f.committed = len(f.out)
		}
	}
	return f.out
}

// withInput adds to msgs, a client's message list, its input the
// session took after the events msgs were built from (later) or holds
// queued, steering or follow-up not yet applied: the client posted
// them and holds them under its ids, and the events that report them
// applied add no message, so a snapshot without them takes them off
// for good.
func withInput(msgs []Message, later []contract.RunEvent, queued []contract.QueuedInput) []Message {
	f := folder{out: msgs, at: map[string]int{}}
	for i, m := range msgs {
		f.at[m.ID] = i
	}
	for _, ev := range later {
		if len(ev.Subflow) == 0 {
			f.input(ev)
		}
	}
	for _, q := range queued {
		for _, t := range q.Turns {
			if t.ClientID != "" {
				f.add(Message{ID: t.ClientID, Role: "user", Content: t.Text()})
			}
		}
	}
	return f.out
}

// folder builds a message list from AG-UI events, as the official
// client's defaultApplyEvents does.
type folder struct {
	out []Message
	// at indexes out by message id.
	at map[string]int
	// committed counts the messages of out up to the newest committed
	// event: those after it are the model call's in flight.
	committed int
}

// drop forgets the messages of a model call's attempt that broke: the
// session holds none of what it streamed.
func (f *folder) drop() {
	for _, m := range f.out[f.committed:] {
		delete(f.at, m.ID)
	}
	f.out = f.out[:f.committed]
}

// input adds the client's messages an event reports the session took.
func (f *folder) input(ev contract.RunEvent) {
	switch ev.Kind {
	case contract.EvRunStarted, contract.EvSteeringApplied, contract.EvFollowUpApplied:
	default:
		return
	}
	texts := []string{ev.Text}
	if n := len(ev.ClientIDs); n > 1 {
		// The event joins its turns' texts by lines; when the lines do
		// not split back one a turn, the first message carries them all.
		if lines := strings.Split(ev.Text, "\n"); len(lines) == n {
			texts = lines
		}
	}
	for i, id := range ev.ClientIDs {
		if i < len(texts) {
			f.add(Message{ID: id, Role: "user", Content: texts[i]})
		}
	}
}

func (f *folder) add(m Message) *Message {
	if i, ok := f.at[m.ID]; ok {
		return &f.out[i]
	}
	f.at[m.ID] = len(f.out)
	f.out = append(f.out, m)
	return &f.out[len(f.out)-1]
}

// message returns the message id names, that of the reply a "-rest" or
// "-final" part completes, and whether it replaces that reply's text.
func (f *folder) message(id string) (m *Message, replace bool) {
	for _, suffix := range []string{"-rest", "-final"} {
		if base, ok := strings.CutSuffix(id, suffix); ok {
			if i, ok := f.at[base]; ok {
				return &f.out[i], suffix == "-final"
			}
		}
	}
	if i, ok := f.at[id]; ok {
		return &f.out[i], false
	}
	return nil, false
}

func (f *folder) event(e Event) {
	switch e.Type {
	case TextMessageStart, ReasoningMessageStart:
		if m, replace := f.message(e.MessageID); m != nil {
			if replace {
				m.Content = ""
			}
			return
		}
		f.add(Message{ID: e.MessageID, Role: e.Role})
	case TextMessageContent, ReasoningMessageContent:
		if m, _ := f.message(e.MessageID); m != nil {
			m.Content += e.Delta
		}
	case ToolCallStart:
		if f.call(e.ToolCallID) != nil {
			return
		}
		m, _ := f.message(e.ParentMessageID)
		if m == nil || m.Role != "assistant" {
			m = f.add(Message{ID: e.ParentMessageID, Role: "assistant"})
		}
		m.ToolCalls = append(m.ToolCalls, ToolCall{ID: e.ToolCallID, Type: "function", Function: Function{Name: e.ToolCallName}})
	case ToolCallArgs:
		if c := f.call(e.ToolCallID); c != nil {
			c.Function.Arguments += e.Delta
		}
	case ToolCallResult:
		f.result(e)
	}
}

// call returns the tool call id names, in any message.
func (f *folder) call(id string) *ToolCall {
	for i := range f.out {
		for j := range f.out[i].ToolCalls {
			if f.out[i].ToolCalls[j].ID == id {
				return &f.out[i].ToolCalls[j]
			}
		}
	}
	return nil
}

// result puts a tool's result after the results already following the
// message that made its call, as the client does.
func (f *folder) result(e Event) {
	if _, ok := f.at[e.MessageID]; ok || e.Content == nil {
		return
	}
	m := Message{ID: e.MessageID, Role: "tool", Content: *e.Content, ToolCallID: e.ToolCallID}
	at := len(f.out)
	for i, msg := range f.out {
		if msg.Role == "assistant" && hasCall(msg, e.ToolCallID) {
			at = i + 1
			for at < len(f.out) && f.out[at].Role == "tool" {
				at++
			}
			break
		}
	}
	f.out = append(f.out[:at], append([]Message{m}, f.out[at:]...)...)
	for i := at; i < len(f.out); i++ {
		f.at[f.out[i].ID] = i
	}
}

func hasCall(m Message, id string) bool {
	for _, c := range m.ToolCalls {
		if c.ID == id {
			return true
		}
	}
	return false
}

func isReasoning(m Message) bool { return m.Role == "reasoning" }
