package turn_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func result(id, content string) contract.Block {
	return contract.ResultBlock(contract.ToolResult{CallID: id, Name: "search", Content: content})
}

func placeholder(id, name string) contract.Block {
	return contract.ResultBlock(contract.ToolResult{CallID: id, Name: name, Content: turn.PlaceholderResult, IsError: true})
}

func redacted(data string) contract.Block {
	return contract.Block{Kind: contract.BlockRedactedThinking, Signature: data}
}

func tools(blocks ...contract.Block) contract.Turn {
	return contract.Turn{Role: contract.RoleTool, Blocks: blocks}
}

func TestSanitize(t *testing.T) {
	user := contract.UserText("hi")
	tests := []struct {
		name    string
		in, out []contract.Turn
	}{{
		name: "well formed stays",
		in:   []contract.Turn{user, assistant(call("a", "search", "{}")), tools(result("a", "1")), assistant(contract.TextBlock("ok"))},
		out:  []contract.Turn{user, assistant(call("a", "search", "{}")), tools(result("a", "1")), assistant(contract.TextBlock("ok"))},
	}, {
		name: "redacted thinking kept beside a dangling call",
		in:   []contract.Turn{user, assistant(redacted("EnC0"), call("a", "search", "{}"))},
		out:  []contract.Turn{user, assistant(redacted("EnC0"), call("a", "search", "{}")), tools(placeholder("a", "search"))},
	}, {
		name: "orphan result dropped with its empty turn",
		in:   []contract.Turn{user, tools(result("zz", "1")), assistant(contract.TextBlock("ok"))},
		out:  []contract.Turn{user, assistant(contract.TextBlock("ok"))},
	}, {
		name: "dangling call at the end gets a placeholder",
		in:   []contract.Turn{user, assistant(call("a", "search", "{}"))},
		out:  []contract.Turn{user, assistant(call("a", "search", "{}")), tools(placeholder("a", "search"))},
	}, {
		name: "missing, stray, duplicate and out of order results",
		in: []contract.Turn{user, assistant(call("a", "search", "{}"), call("b", "get_weather", "{}"), call("c", "search", "{}")),
			tools(result("c", "3"), result("zz", "x")), tools(result("a", "1"), result("a", "again")), user},
		out: []contract.Turn{user, assistant(call("a", "search", "{}"), call("b", "get_weather", "{}"), call("c", "search", "{}")),
			tools(result("a", "1"), placeholder("b", "get_weather"), result("c", "3")), user},
	}, {
		name: "result inside a user turn is an orphan",
		in:   []contract.Turn{{Role: contract.RoleUser, Blocks: []contract.Block{result("a", "1"), contract.TextBlock("hi")}}},
		out:  []contract.Turn{user},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := turn.Sanitize(contract.HistoryOf(tt.in...)).Turns()
			if diff := cmp.Diff(tt.out, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestSanitizeSharesWellFormedHistory(t *testing.T) {
	h := contract.HistoryOf(contract.UserText("hi"), assistant(call("a", "search", "{}")), tools(result("a", "1")))
	if got := turn.Sanitize(h); got != h {
		t.Error("a well-formed history was rebuilt instead of returned as is")
	}
}

func genTurn(t *rapid.T, label string) contract.Turn {
	ids := []string{"a", "b", "c"}
	n := rapid.IntRange(0, 3).Draw(t, label+"n")
	switch rapid.IntRange(0, 2).Draw(t, label+"role") {
	case 0:
		return contract.UserText("u")
	case 1:
		var bs []contract.Block
		for i := range n {
			bs = append(bs, call(rapid.SampledFrom(ids).Draw(t, label+"call"+string(rune('0'+i))), "search", "{}"))
		}
		return assistant(append(bs, contract.TextBlock("t"))...)
	default:
		var bs []contract.Block
		for i := range n {
			bs = append(bs, result(rapid.SampledFrom(ids).Draw(t, label+"res"+string(rune('0'+i))), "r"))
		}
		return tools(bs...)
	}
}

// TestSanitizeProperties: after Sanitize every call is answered once, right
// after its turn and in order, no result is an orphan, and a second pass
// changes nothing.
func TestSanitizeProperties(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		var in []contract.Turn
		for i := range rapid.IntRange(0, 8).Draw(t, "len") {
			in = append(in, genTurn(t, string(rune('a'+i))))
		}
		out := turn.Sanitize(contract.HistoryOf(in...))
		turns := out.Turns()
		for i, tr := range turns {
			if tr.Role == contract.RoleTool {
				if i == 0 || len(turns[i-1].Calls()) == 0 {
					t.Fatalf("tool turn %d does not follow a turn with calls", i)
				}
				continue
			}
			calls := tr.Calls()
			if len(calls) == 0 {
				continue
			}
			if i+1 >= len(turns) {
				t.Fatalf("turn %d has calls and nothing after it", i)
			}
			res := turns[i+1].Results()
			if len(res) != len(calls) {
				t.Fatalf("turn %d: %d calls, %d results", i, len(calls), len(res))
			}
			for k := range calls {
				if res[k].CallID != calls[k].ID {
					t.Fatalf("turn %d: result %d answers %q, want %q", i, k, res[k].CallID, calls[k].ID)
				}
			}
		}
		if again := turn.Sanitize(out); again != out {
			t.Fatalf("second pass changed the history")
		}
	})
}
