package conductor

import (
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// Input is what a host sends: text, or whole user turns, and tools for
// this run only, which shadow the agent's tools of the same name.
type Input struct {
	Text  string
	Turns []contract.Turn
	Tools []dispatch.Tool
}

// Text returns an Input holding one user message.
func Text(s string) Input { return Input{Text: s} }

func (in Input) turns() []contract.Turn {
	turns := in.Turns
	if in.Text != "" {
		turns = append(append([]contract.Turn(nil), turns...), contract.UserText(in.Text))
	}
	return turns
}
