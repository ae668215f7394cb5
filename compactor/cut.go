package compactor

import "github.com/batonrt/baton/contract"

// FindCutPoint returns cut such that turns[:cut] may be condensed. It keeps
// at least the newest keepRecent turns verbatim (at least one, since the
// conversation goes on from the newest), and it moves the cut towards the
// start until the cut is clean:
//
//   - the kept part never starts with a RoleTool turn;
//   - a turn with tool calls is never the last condensed turn, since its
//     results follow it (or are still to come);
//   - no call in turns[:cut] has its result in turns[cut:], matched by call
//     id, nor is a call still waiting for its result;
//   - a summary is never condensed while its archive marker is kept; the
//     pair is kept whole, or condensed whole into the new summary.
//
// It returns ok=false when there is nothing worth cutting (cut < 1).
func FindCutPoint(turns []contract.Turn, keepRecent int) (cut int, ok bool) {
	keepRecent = max(keepRecent, 1)
	spans := pairSpans(turns)
	for cut = len(turns) - keepRecent; cut >= 1; cut-- {
		if spans[cut] == 0 && cleanBoundary(turns[cut-1], turns[cut]) {
			return cut, true
		}
	}
	return 0, false
}

// cleanBoundary reports whether a cut between last (condensed) and first
// (kept) leaves both sides well formed.
func cleanBoundary(last, first contract.Turn) bool {
	switch {
	case first.Role == contract.RoleTool:
		return false
	case len(last.Calls()) > 0:
		return false
	case last.Mark == contract.MarkSummary && first.Mark == contract.MarkArchive:
		return false
	}
	return true
}

// pairSpans returns, for every cut position c in 0..len(turns), how many
// call/result pairs a cut at c would separate: a call in turn i answered in
// turn j spans the cuts i+1..j, and an unanswered call spans every cut
// after it.
func pairSpans(turns []contract.Turn) []int {
	diff := make([]int, len(turns)+2)
	open := map[string]int{}
	span := func(from, to int) {
		diff[from+1]++
		diff[to+1]--
	}
	for j, t := range turns {
		for _, b := range t.Blocks {
			switch {
			case b.Kind == contract.BlockToolResult && b.Result != nil:
				if i, ok := open[b.Result.CallID]; ok && i < j {
					span(i, j)
					delete(open, b.Result.CallID)
				}
			case b.Kind == contract.BlockToolCall && b.Call != nil:
				open[b.Call.ID] = j
			}
		}
	}
	// Spans add up, so the map's order cannot change the result.
	for _, i := range open {
		span(i, len(turns))
	}
	spans := make([]int, len(turns)+1)
	run := 0
	for c := range spans {
		run += diff[c]
		spans[c] = run
	}
	return spans
}
