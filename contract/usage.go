package contract

// Usage counts what a run or a session consumed.
type Usage struct {
	InputTokens     int64 `json:"input_tokens,omitempty"`
	OutputTokens    int64 `json:"output_tokens,omitempty"`
	CachedTokens    int64 `json:"cached_tokens,omitempty"`
	ReasoningTokens int64 `json:"reasoning_tokens,omitempty"`
	ModelCalls      int64 `json:"model_calls,omitempty"`
	ToolCalls       int64 `json:"tool_calls,omitempty"`
	// WallNanos is the time from a run's submit to its end, from the
	// timestamps the signals carry.
	WallNanos int64 `json:"wall_nanos,omitempty"`
}

// Add returns u plus v.
func (u Usage) Add(v Usage) Usage {
	return Usage{
		InputTokens:     u.InputTokens + v.InputTokens,
		OutputTokens:    u.OutputTokens + v.OutputTokens,
		CachedTokens:    u.CachedTokens + v.CachedTokens,
		ReasoningTokens: u.ReasoningTokens + v.ReasoningTokens,
		ModelCalls:      u.ModelCalls + v.ModelCalls,
		ToolCalls:       u.ToolCalls + v.ToolCalls,
		WallNanos:       u.WallNanos + v.WallNanos,
	}
}
