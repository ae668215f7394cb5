package compactor

import "github.com/batonrt/baton/contract"

// DroppedOutput replaces a tool result's content when DropToolOutputs
// sheds it.
const DroppedOutput = "[output dropped to save context]"

// DropToolOutputs is the fallback when a summary can't be made: every tool
// result in turns[:cut] gets DroppedOutput for content (results already
// dropped stay as they are), and the changed turns are estimated again.
// Call ids, names, error flags and the order of turns are unchanged, so
// pairing holds. The input is not modified.
func DropToolOutputs(model string, turns []contract.Turn, cut int) []contract.Turn {
	return EstimatorFor(model, contract.CurrentRevision).DropToolOutputs(turns, cut)
}

// DropToolOutputs is the package's DropToolOutputs with the changed turns
// counted by e.
func (e Estimator) DropToolOutputs(turns []contract.Turn, cut int) []contract.Turn {
	out := append([]contract.Turn(nil), turns...)
	cut = min(max(cut, 0), len(out))
	for i := range out[:cut] {
		if t, changed := dropResults(out[i]); changed {
			t.Tokens = e.Turn(t)
			out[i] = t
		}
	}
	return out
}

// dropResults returns t with its results' content dropped, copying the
// blocks it changes so the caller's turn stays as it was.
func dropResults(t contract.Turn) (contract.Turn, bool) {
	changed := false
	for j, b := range t.Blocks {
		if b.Kind != contract.BlockToolResult || b.Result == nil || b.Result.Content == DroppedOutput {
			continue
		}
		if !changed {
			t.Blocks = append([]contract.Block(nil), t.Blocks...)
			changed = true
		}
		r := *b.Result
		r.Content = DroppedOutput
		t.Blocks[j].Result = &r
	}
	return t, changed
}
