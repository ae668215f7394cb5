package ledger

import (
	"strings"
	"sync"

	"github.com/batonrt/baton/contract"
)

// AssembledTurn is one assistant turn as the transcript saw it.
type AssembledTurn struct {
	RunID    string
	Text     string
	Thinking string
	Calls    []contract.ToolCall
	// Complete says turn_completed arrived; Text, Thinking and Calls then
	// come from the committed turn rather than from the deltas.
	Complete bool
}

// Transcript assembles the assistant's text per turn: deltas grow the open
// turn, and turn_completed replaces it with the committed turn, so a lost
// or lagged delta never leaves a wrong transcript behind.
type Transcript struct {
	mu    sync.Mutex
	turns []AssembledTurn
	text  strings.Builder
	think strings.Builder
	open  bool
}

// NewTranscript returns an empty transcript.
func NewTranscript() *Transcript { return &Transcript{} }

// Observe folds one event in; it is a subscriber fn.
// A delegated run's events (Subflow set) are left out: the transcript is
// the root run's.
func (t *Transcript) Observe(ev contract.RunEvent) {
	if len(ev.Subflow) > 0 {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	switch ev.Kind {
	case contract.EvTextDelta:
		t.ensureOpen(ev.RunID)
		t.text.WriteString(ev.Text)
	case contract.EvThinkingDelta:
		t.ensureOpen(ev.RunID)
		t.think.WriteString(ev.Text)
	case contract.EvModelRetry:
		// The driver starts the reply again; what the broken attempt
		// streamed is not part of it.
		t.text.Reset()
		t.think.Reset()
	case contract.EvTurnCompleted:
		t.complete(ev)
	case contract.EvRunFaulted, contract.EvRunSettled:
		t.closeOpen()
	}
}

// closeOpen ends a turn the run left unfinished, keeping the text its
// deltas carried, since no committed turn will replace it.
func (t *Transcript) closeOpen() {
	if !t.open {
		return
	}
	t.open = false
	last := &t.turns[len(t.turns)-1]
	last.Text, last.Thinking = t.text.String(), t.think.String()
}

func (t *Transcript) ensureOpen(runID string) {
	if t.open {
		return
	}
	t.open = true
	t.text.Reset()
	t.think.Reset()
	t.turns = append(t.turns, AssembledTurn{RunID: runID})
}

func (t *Transcript) complete(ev contract.RunEvent) {
	if ev.Turn == nil || ev.Turn.Role != contract.RoleAssistant {
		return
	}
	if !t.open {
		t.turns = append(t.turns, AssembledTurn{})
	}
	t.open = false
	t.turns[len(t.turns)-1] = AssembledTurn{
		RunID:    ev.RunID,
		Text:     ev.Turn.Text(),
		Thinking: thinkingOf(*ev.Turn),
		Calls:    ev.Turn.Calls(),
		Complete: true,
	}
}

func thinkingOf(turn contract.Turn) string {
	var b strings.Builder
	for _, bl := range turn.Blocks {
		if bl.Kind == contract.BlockThinking {
			b.WriteString(bl.Text)
		}
	}
	return b.String()
}

// Turns returns the assistant turns so far, the open one last with the
// text its deltas carried.
func (t *Transcript) Turns() []AssembledTurn {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]AssembledTurn, len(t.turns))
	copy(out, t.turns)
	if t.open && len(out) > 0 {
		out[len(out)-1].Text = t.text.String()
		out[len(out)-1].Thinking = t.think.String()
	}
	return out
}

// Text returns the assistant's text of every turn, one turn per line.
func (t *Transcript) Text() string {
	var parts []string
	for _, turn := range t.Turns() {
		if turn.Text != "" {
			parts = append(parts, turn.Text)
		}
	}
	return strings.Join(parts, "\n")
}
