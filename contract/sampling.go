package contract

import "fmt"

// ToolChoice says whether and which tool the model must call: ToolChoiceAuto
// (the model decides, the providers' default), ToolChoiceRequired (some
// tool), ToolChoiceNone (no tool), or any other value, the name of the one
// tool it must call. Empty leaves the provider's default. From revision
// 14 a choice that makes the model call a tool holds until the run's
// first round of tool calls, and the run's later calls send
// ToolChoiceAuto (see RevisionChoiceOnce).
type ToolChoice string

const (
	ToolChoiceAuto     ToolChoice = "auto"
	ToolChoiceRequired ToolChoice = "required"
	ToolChoiceNone     ToolChoice = "none"
)

// Tool returns the tool the choice names, if it names one.
func (c ToolChoice) Tool() (string, bool) {
	switch c {
	case "", ToolChoiceAuto, ToolChoiceRequired, ToolChoiceNone:
		return "", false
	}
	return string(c), true
}

// MaxStopSequences bounds Sampling.Stop; OpenAI accepts no more.
const MaxStopSequences = 4

// Sampling holds the request options a provider passes to the model. Nil
// and empty fields leave the provider's defaults. A provider without an
// option (Anthropic has no seed) leaves it out, as its doc says.
type Sampling struct {
	Temperature *float64 `json:"temperature,omitempty"`
	TopP        *float64 `json:"top_p,omitempty"`
	// Stop sequences end the reply where they appear.
	Stop []string `json:"stop,omitempty"`
	// Seed asks for repeatable sampling where the provider offers it.
	Seed *int64 `json:"seed,omitempty"`
	// ParallelToolCalls, when false, asks for at most one tool call per
	// reply.
	ParallelToolCalls *bool      `json:"parallel_tool_calls,omitempty"`
	ToolChoice        ToolChoice `json:"tool_choice,omitempty"`
}

// fieldErrors checks the options against the tools the agent offers.
func (s Sampling) fieldErrors(tools []ToolDescriptor) []FieldError {
	var bad []FieldError
	add := func(field, format string, args ...any) {
		bad = append(bad, FieldError{Field: "Sampling." + field, Reason: fmt.Sprintf(format, args...)})
	}
	if t := s.Temperature; t != nil && !(*t >= 0 && *t <= 2) {
		add("Temperature", "must be in [0, 2], got %g", *t)
	}
	if p := s.TopP; p != nil && !(*p > 0 && *p <= 1) {
		add("TopP", "must be in (0, 1], got %g", *p)
	}
	if len(s.Stop) > MaxStopSequences {
		add("Stop", "must hold at most %d sequences, got %d", MaxStopSequences, len(s.Stop))
	}
	for i, seq := range s.Stop {
		if seq == "" {
			add(fmt.Sprintf("Stop[%d]", i), "is empty")
		}
	}
	if name, ok := s.ToolChoice.Tool(); ok && !hasTool(tools, name) {
		add("ToolChoice", "names %q, which is not one of the agent's tools", name)
	}
	if s.ToolChoice == ToolChoiceRequired && len(tools) == 0 {
		add("ToolChoice", "is required, but the agent has no tools")
	}
	return bad
}

// offeredNames is the tools a model of c is offered, by name only: its
// own, then its delegates' while its depth lets it offer them. A tool
// choice may name any of them.
func (c *AgentConfig) offeredNames() []ToolDescriptor {
	if !c.OffersDelegates() {
		return c.Tools
	}
	tools := append(make([]ToolDescriptor, 0, len(c.Tools)+len(c.Delegates)), c.Tools...)
	for _, d := range c.Delegates {
		tools = append(tools, ToolDescriptor{Name: d.ToolName()})
	}
	return tools
}

func hasTool(tools []ToolDescriptor, name string) bool {
	for _, t := range tools {
		if t.Name == name {
			return true
		}
	}
	return false
}
