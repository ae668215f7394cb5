package cadence

import (
	"encoding/json"
	"errors"

	"github.com/batonrt/baton/contract"
)

// stepAwaitingHuman handles a run whose open calls are questions to a
// person. It has no timeout: only an answer, host input or a resume move
// it.
func stepAwaitingHuman(t *transition) string {
	switch sig := t.sig.(type) {
	case contract.HumanAnswered:
		return t.onAnswer(sig)
	case contract.Resumed:
		if !t.abortOnResume() {
			t.resumeBatch()
		}
		return ""
	}
	return t.onHostInput("awaiting a person's answer")
}

// askHuman puts a new call to a tool that asks a person; a call whose
// arguments are no question goes back to the model as an error.
func (t *transition) askHuman(p *contract.PendingCall) {
	q, err := parseQuestion(p.Call.Arguments)
	if err != nil {
		t.answer(p, "error: "+p.Call.Name+": "+err.Error()+`; send {"question": "...", "choices": ["..."]} with choices optional`, true)
		return
	}
	p.State = contract.CallAwaitingHuman
	p.Question = &q
	t.emit(&contract.AskHuman{Call: p.Call, Question: q})
	t.publish(contract.RunEvent{Kind: contract.EvQuestionAsked, Call: &p.Call, Question: &q})
}

// onAnswer settles a question with the person's answer as its result.
func (t *transition) onAnswer(sig contract.HumanAnswered) string {
	i := t.findPending(sig.CallID)
	if i < 0 {
		return "human_answered: no pending call " + quote(sig.CallID)
	}
	if st := t.s.Pending[i].State; st != contract.CallAwaitingHuman {
		return "human_answered: call " + quote(sig.CallID) + " is " + string(st) + ", not awaiting an answer"
	}
	p := &t.pending()[i]
	p.Question = nil
	t.publish(contract.RunEvent{Kind: contract.EvQuestionAnswered, Call: &p.Call, Text: sig.Answer})
	t.answer(p, sig.Answer, false)
	t.advance()
	return ""
}

var errNoQuestion = errors.New("the question is missing or empty")

// parseQuestion reads an ask-human call's arguments.
func parseQuestion(args string) (contract.Question, error) {
	var in struct {
		Question string   `json:"question"`
		Choices  []string `json:"choices"`
	}
	if err := json.Unmarshal([]byte(args), &in); err != nil {
		return contract.Question{}, errors.New("arguments must be a JSON object with a question string and optional choices strings")
	}
	if in.Question == "" {
		return contract.Question{}, errNoQuestion
	}
	return contract.Question{Text: in.Question, Choices: in.Choices}, nil
}
