package turn

import (
	"iter"

	"github.com/batonrt/baton/contract"
)

// PlaceholderResult is the content given to a tool call that has no
// recorded result, so strict providers accept the history.
const PlaceholderResult = "error: no result was recorded for this tool call"

// Sanitize returns the history with orphan tool results dropped and
// dangling tool calls given a placeholder error result. The results of an
// assistant turn's calls end up in one tool turn right after it, in call
// order, each call answered exactly once. A well-formed history is
// returned as it is, sharing all its turns.
func Sanitize(h contract.History) contract.History {
	if wellFormed(h) {
		return h
	}
	turns := h.Turns()
	out := make([]contract.Turn, 0, len(turns)+1)
	changed := false
	for i := 0; i < len(turns); {
		t := turns[i]
		i++
		if t.Role == contract.RoleTool {
			changed = true // results with no call before them are orphans
			if rest, ok := withoutResults(t); ok {
				out = append(out, rest)
			}
			continue
		}
		if t.Role != contract.RoleAssistant && hasResults(t) {
			changed = true
			if rest, ok := withoutResults(t); ok {
				out = append(out, rest)
			}
			continue
		}
		out = append(out, t)
		calls := t.Calls()
		if len(calls) == 0 {
			continue
		}
		j := i
		for j < len(turns) && turns[j].Role == contract.RoleTool {
			j++
		}
		answer, same := answerCalls(calls, turns[i:j])
		out = append(out, answer)
		changed = changed || !same
		i = j
	}
	if !changed {
		return h
	}
	return contract.HistoryOf(out...)
}

// answerCalls merges the tool turns after an assistant turn into one that
// answers each call once, in order; same says nothing had to change.
func answerCalls(calls []contract.ToolCall, tools []contract.Turn) (contract.Turn, bool) {
	byID := map[string]contract.ToolResult{}
	var extra []contract.Block
	for _, t := range tools {
		for _, b := range t.Blocks {
			switch {
			case b.Kind == contract.BlockToolResult && b.Result != nil:
				if _, dup := byID[b.Result.CallID]; !dup {
					byID[b.Result.CallID] = *b.Result
				}
			case b.Kind != contract.BlockToolResult:
				extra = append(extra, b)
			}
		}
	}
	answer := contract.Turn{Role: contract.RoleTool, Blocks: make([]contract.Block, 0, len(calls)+len(extra))}
	if len(tools) == 1 {
		answer.Mark, answer.Tokens = tools[0].Mark, tools[0].Tokens
	}
	for _, c := range calls {
		r, ok := byID[c.ID]
		if !ok {
			r = contract.ToolResult{CallID: c.ID, Name: c.Name, Content: PlaceholderResult, IsError: true}
		}
		answer.Blocks = append(answer.Blocks, contract.ResultBlock(r))
	}
	answer.Blocks = append(answer.Blocks, extra...)
	return answer, len(tools) == 1 && sameBlocks(tools[0].Blocks, answer.Blocks)
}

func sameBlocks(a, b []contract.Block) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Kind != b[i].Kind {
			return false
		}
		if a[i].Kind == contract.BlockToolResult && (a[i].Result == nil || *a[i].Result != *b[i].Result) {
			return false
		}
	}
	return true
}

func hasResults(t contract.Turn) bool {
	for _, b := range t.Blocks {
		if b.Kind == contract.BlockToolResult {
			return true
		}
	}
	return false
}

// withoutResults drops the result blocks; ok is false when nothing is left.
func withoutResults(t contract.Turn) (contract.Turn, bool) {
	var keep []contract.Block
	for _, b := range t.Blocks {
		if b.Kind != contract.BlockToolResult {
			keep = append(keep, b)
		}
	}
	t.Blocks = keep
	return t, len(keep) > 0
}

// wellFormed checks, newest first and without copying, that every tool
// turn answers exactly the calls of the assistant turn before it, in
// order, and that no other turn holds results. It is the common case, and
// checking it costs no allocation, so a long history is not rebuilt on
// every model call.
func wellFormed(h contract.History) bool { return wellFormedBackward(h.Backward(), 0) }

// wellFormedBackward is wellFormed over turns given newest first, down
// to the turn at index from.
func wellFormedBackward(turns iter.Seq2[int, contract.Turn], from int) bool {
	var after contract.Turn
	hasAfter, needCalls := false, false
	for i, t := range turns {
		if i < from {
			break
		}
		calls := countCalls(t)
		switch {
		case needCalls && (t.Role != contract.RoleAssistant || calls == 0):
			return false
		case t.Role == contract.RoleTool:
			for _, b := range t.Blocks {
				if b.Kind != contract.BlockToolResult || b.Result == nil {
					return false
				}
			}
		case hasResults(t):
			return false
		case calls > 0 && (!hasAfter || after.Role != contract.RoleTool || !answers(t, after)):
			return false
		}
		needCalls = t.Role == contract.RoleTool
		after, hasAfter = t, true
	}
	return !needCalls
}

func countCalls(t contract.Turn) int {
	n := 0
	for _, b := range t.Blocks {
		if b.Kind == contract.BlockToolCall {
			n++
		}
	}
	return n
}

// answers reports whether results holds one result per call of t, in
// call order.
func answers(t, results contract.Turn) bool {
	i := 0
	for _, b := range t.Blocks {
		if b.Kind != contract.BlockToolCall {
			continue
		}
		if b.Call == nil || i >= len(results.Blocks) || results.Blocks[i].Result.CallID != b.Call.ID {
			return false
		}
		i++
	}
	return i == len(results.Blocks)
}
