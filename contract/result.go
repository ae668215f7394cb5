package contract

import "time"

// CallOutcome is one tool call a run made, with its result when it has
// one.
type CallOutcome struct {
	Call   ToolCall    `json:"call"`
	Result *ToolResult `json:"result,omitempty"`
}

// FinalText is the text of the run's final answer: the newest assistant
// turn of a settled run. It is empty while the run is in flight and when
// it faulted.
func (s RunSnapshot) FinalText() string {
	if s.Phase != PhaseSettled {
		return ""
	}
	for _, t := range s.History.Backward() {
		if t.Role == RoleAssistant {
			return t.Text()
		}
	}
	return ""
}

// ToolCalls lists the tool calls of the current (or just ended) run in
// the order they were made, each with its result. Calls a compaction
// condensed into a summary are no longer listed.
func (s RunSnapshot) ToolCalls() []CallOutcome {
	var out []CallOutcome
	index := map[string]int{}
	for i, t := range s.History.All() {
		if i < s.RunFrom {
			continue
		}
		for _, c := range t.Calls() {
			index[c.ID] = len(out)
			out = append(out, CallOutcome{Call: c})
		}
		for _, r := range t.Results() {
			if j, ok := index[r.CallID]; ok && out[j].Result == nil {
				out[j].Result = &r
			}
		}
	}
	return out
}

// TurnCount is the number of model calls the run made.
func (s RunSnapshot) TurnCount() int { return s.Turns }

// WallTime is the run's duration from its submit to its end, from the
// timestamps the signals carry; zero while the run is in flight.
func (s RunSnapshot) WallTime() time.Duration { return time.Duration(s.RunUsage.WallNanos) }
