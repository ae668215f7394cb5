package dispatch

import (
	"context"
	"encoding/json"
	"errors"

	"github.com/batonrt/baton/contract"
)

// AskHumanName is the name AskHuman's tool has unless given another.
const AskHumanName = "ask_human"

var askHumanSchema = json.RawMessage(`{"type":"object","properties":{"question":{"type":"string","description":"what to ask, in one or two sentences"},"choices":{"type":"array","items":{"type":"string"},"description":"answers to offer, if the question has a few likely ones"}},"required":["question"],"additionalProperties":false}`)

// errAnsweredByPerson is what the ask-human tool says if something runs it:
// the runtime answers its calls with a person's answer instead.
var errAnsweredByPerson = errors.New("dispatch: ask_human is answered by a person through the runtime, not run")

// AskHuman returns the built-in tool that lets the model ask a person a
// question. Its descriptor AsksHuman, so a call never runs: the run waits,
// with no timeout, until the host answers it, and the answer is the
// call's result. An empty name means AskHumanName.
func AskHuman(name string) Tool {
	if name == "" {
		name = AskHumanName
	}
	return &rawTool{
		d: contract.ToolDescriptor{
			Name:        name,
			Description: "Ask the person you work for a question and wait for the answer. Use it when you need a decision, a preference or a fact only they have; do not use it for things you can find out with other tools.",
			InputSchema: askHumanSchema,
			AsksHuman:   true,
		},
		fn: func(context.Context, json.RawMessage) (contract.ToolOutcome, error) {
			return contract.ToolOutcome{}, errAnsweredByPerson
		},
	}
}
