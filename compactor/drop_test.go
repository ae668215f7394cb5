package compactor_test

import (
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

func TestDropToolOutputs(t *testing.T) {
	errResult := contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "2", Name: "read", Content: "boom", IsError: true})}}
	already := contract.Turn{Role: contract.RoleTool, Tokens: 77, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "3", Name: "read", Content: compactor.DroppedOutput})}}
	turns := []contract.Turn{user("q"), calling("1"), results("1"), calling("2"), errResult, calling("3"), already, calling("4"), results("4")}
	orig := clone(t, turns)
	got := compactor.DropToolOutputs("gpt-4o", turns, 7)
	if diff := cmp.Diff(orig, turns); diff != "" {
		t.Fatalf("DropToolOutputs modified its input (-want +got):\n%s", diff)
	}
	dropped := func(id string, isErr bool) contract.Turn {
		tr := contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: id, Name: "read", Content: compactor.DroppedOutput, IsError: isErr})}}
		tr.Tokens = compactor.Estimate("gpt-4o", tr)
		return tr
	}
	want := []contract.Turn{user("q"), calling("1"), dropped("1", false), calling("2"), dropped("2", true), calling("3"), already, calling("4"), results("4")}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func TestDropToolOutputsBounds(t *testing.T) {
	turns := []contract.Turn{calling("1"), results("1")}
	for _, cut := range []int{-1, 0} {
		if diff := cmp.Diff(turns, compactor.DropToolOutputs("", turns, cut)); diff != "" {
			t.Errorf("cut %d: mismatch (-want +got):\n%s", cut, diff)
		}
	}
	got := compactor.DropToolOutputs("", turns, 10)
	if r := got[1].Results(); len(r) != 1 || r[0].Content != compactor.DroppedOutput {
		t.Errorf("cut past the end: results = %+v, want dropped", r)
	}
	if want := compactor.Estimate("", got[1]); got[1].Tokens != want {
		t.Errorf("dropped turn tokens = %d, want re-estimated %d", got[1].Tokens, want)
	}
}
