package compactor_test

import (
	"fmt"
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func TestFindCutPoint(t *testing.T) {
	type result struct {
		Cut int
		OK  bool
	}
	tests := []struct {
		name  string
		turns []contract.Turn
		keep  int
		want  result
	}{
		{"empty", nil, 2, result{0, false}},
		{"shorter than keep", []contract.Turn{user("a"), assistant("b")}, 2, result{0, false}},
		{"exactly keep", []contract.Turn{user("a"), assistant("b"), user("c")}, 3, result{0, false}},
		{"plain", []contract.Turn{user("a"), assistant("b"), user("c"), assistant("d")}, 2, result{2, true}},
		{"keep zero keeps one", []contract.Turn{user("a"), assistant("b"), user("c")}, 0, result{2, true}},
		{"keep negative keeps one", []contract.Turn{user("a"), assistant("b"), user("c")}, -5, result{2, true}},
		{"kept part would start with tool turn", []contract.Turn{
			user("a"), calling("1"), results("1"), assistant("d"),
		}, 2, result{1, true}},
		{"last condensed turn would hold calls", []contract.Turn{
			user("a"), assistant("b"), user("c"), calling("1"), results("1"), assistant("e"),
		}, 3, result{3, true}},
		{"only pair at the start", []contract.Turn{
			calling("1"), results("1"), assistant("c"),
		}, 2, result{0, false}},
		{"pending calls at the end", []contract.Turn{
			user("a"), assistant("b"), user("c"), calling("1", "2"),
		}, 1, result{3, true}},
		{"result far from its call", []contract.Turn{
			user("a"), calling("1"), marked(contract.MarkSteer, "steer"), results("1"), user("e"), assistant("f"),
		}, 3, result{1, true}},
		{"unanswered call blocks every later cut", []contract.Turn{
			user("a"), calling("1"), user("c"), assistant("d"), user("e"),
		}, 1, result{1, true}},
		{"summary and archive stay together", []contract.Turn{
			marked(contract.MarkSummary, "s"), marked(contract.MarkArchive, "m"), user("a"), assistant("b"),
		}, 3, result{0, false}},
		{"summary pair may be condensed whole", []contract.Turn{
			marked(contract.MarkSummary, "s"), marked(contract.MarkArchive, "m"), user("a"), assistant("b"),
		}, 2, result{2, true}},
		{"summary pair kept when cut falls inside it", []contract.Turn{
			user("x"), marked(contract.MarkSummary, "s"), marked(contract.MarkArchive, "m"), user("a"), assistant("b"),
		}, 3, result{1, true}},
		{"many pairs", []contract.Turn{
			user("a"), calling("1"), results("1"), calling("2", "3"), results("2", "3"), assistant("f"), user("g"), calling("4"), results("4"), assistant("j"),
		}, 4, result{6, true}},
		{"many pairs, cut moved back over a pair", []contract.Turn{
			user("a"), calling("1"), results("1"), calling("2", "3"), results("2", "3"), assistant("f"), user("g"), calling("4"), results("4"), assistant("j"),
		}, 2, result{7, true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cut, ok := compactor.FindCutPoint(tt.turns, tt.keep)
			if diff := cmp.Diff(tt.want, result{cut, ok}); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// genHistory draws a well-formed history: user turns, plain assistant
// turns, assistant turns with calls followed by their tool turn (sometimes
// with a steer in between), summary/archive pairs, and possibly calls
// still pending at the end.
func genHistory(t *rapid.T) []contract.Turn {
	var turns []contract.Turn
	next := 0
	n := rapid.IntRange(0, 30).Draw(t, "steps")
	for range n {
		switch rapid.IntRange(0, 5).Draw(t, "kind") {
		case 0, 1:
			turns = append(turns, user("u"))
		case 2:
			turns = append(turns, assistant("a"))
		case 3, 4:
			var ids []string
			for range rapid.IntRange(1, 3).Draw(t, "calls") {
				next++
				ids = append(ids, fmt.Sprint(next))
			}
			turns = append(turns, calling(ids...))
			if rapid.Bool().Draw(t, "steer between") {
				turns = append(turns, marked(contract.MarkSteer, "s"))
			}
			turns = append(turns, results(ids...))
		case 5:
			turns = append(turns, marked(contract.MarkSummary, "sum"), marked(contract.MarkArchive, "arc"))
		}
	}
	if rapid.Bool().Draw(t, "pending at end") {
		next++
		turns = append(turns, calling(fmt.Sprint(next)))
	}
	return turns
}

func TestFindCutPointProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		turns := genHistory(t)
		keep := rapid.IntRange(-1, 12).Draw(t, "keep")
		cut, ok := compactor.FindCutPoint(turns, keep)
		if !ok {
			if cut != 0 {
				t.Fatalf("ok=false with cut %d", cut)
			}
			return
		}
		if cut < 1 || len(turns)-cut < max(keep, 1) {
			t.Fatalf("cut %d of %d turns keeps fewer than %d", cut, len(turns), keep)
		}
		if turns[cut].Role == contract.RoleTool {
			t.Fatalf("kept part starts with a tool turn at %d", cut)
		}
		condensed := map[string]bool{}
		for _, tr := range turns[:cut] {
			for _, c := range tr.Calls() {
				condensed[c.ID] = true
			}
		}
		answered := map[string]bool{}
		for _, tr := range turns[:cut] {
			for _, r := range tr.Results() {
				answered[r.CallID] = true
			}
		}
		for _, tr := range turns[cut:] {
			for _, r := range tr.Results() {
				if condensed[r.CallID] {
					t.Fatalf("cut %d separates call %s from its result", cut, r.CallID)
				}
			}
		}
		for id := range condensed {
			if !answered[id] {
				t.Fatalf("cut %d condenses call %s whose result is not condensed with it", cut, id)
			}
		}
		if turns[cut-1].Mark == contract.MarkSummary && turns[cut].Mark == contract.MarkArchive {
			t.Fatalf("cut %d splits a summary from its archive marker", cut)
		}
	})
}
