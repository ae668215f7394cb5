package conductor_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

func lookupTool(t testing.TB) dispatch.Tool {
	t.Helper()
	tool, err := dispatch.Func("lookup", "Looks a word up.", func(ctx context.Context, in struct {
		Word string `json:"word"`
	}) (string, error) {
		return in.Word, nil
	}, dispatch.Idempotent())
	if err != nil {
		t.Fatal(err)
	}
	return tool
}

// TestToolsAreDeclaredInTheBox: the box describes every tool the model is
// offered; a config only picks tools by name, and a description it
// carries, such as a stored config's from an earlier release, gives way
// to the box's.
func TestToolsAreDeclaredInTheBox(t *testing.T) {
	echo, lookup := echoTool(t), lookupTool(t)
	stale := echo.Descriptor()
	stale.Description = "An older description."
	stale.InputSchema = json.RawMessage(`{"type":"object"}`)
	stale.NeedsApproval = true
	tests := []struct {
		name      string
		cfg       contract.AgentConfig
		offered   []contract.ToolDescriptor
		badFields []contract.FieldError
	}{
		{name: "no names offer the whole box", offered: []contract.ToolDescriptor{echo.Descriptor(), lookup.Descriptor()}},
		{name: "a name picks the box's tool", cfg: contract.AgentConfig{Tools: []contract.ToolDescriptor{{Name: "lookup"}}},
			offered: []contract.ToolDescriptor{lookup.Descriptor()}},
		{name: "names keep their order", cfg: contract.AgentConfig{Tools: []contract.ToolDescriptor{{Name: "lookup"}, {Name: "echo"}}},
			offered: []contract.ToolDescriptor{lookup.Descriptor(), echo.Descriptor()}},
		{name: "a description in the config gives way to the box's", cfg: contract.AgentConfig{Tools: []contract.ToolDescriptor{stale}},
			offered: []contract.ToolDescriptor{echo.Descriptor()}},
		{name: "a tool not in the box is refused", cfg: contract.AgentConfig{Tools: []contract.ToolDescriptor{{Name: "echo"}, {Name: "ghost"}}},
			badFields: []contract.FieldError{{Field: "Tools[1]", Reason: `"ghost" is not in Deps.Tools.Box`}}},
		{name: "a delegate's tools are checked too", cfg: contract.AgentConfig{Delegates: []contract.Delegate{{Name: "helper", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "ghost"}}}}}},
			badFields: []contract.FieldError{{Field: "Delegates[0].Config.Tools[0]", Reason: `"ghost" is not in Deps.Tools.Box`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &fakeModel{replies: []replyFunc{say("done")}}
			tt.cfg.Model = "gpt-4o"
			a, err := conductor.CreateAgent(tt.cfg, testDeps(m, dispatch.MustToolBox(echo, lookup)))
			if tt.badFields != nil {
				re, ok := contract.AsRunError(err)
				if !ok || re.Kind != contract.KindConfig {
					t.Fatalf("err %v, want a config error", err)
				}
				if diff := cmp.Diff(tt.badFields, re.Fields); diff != "" {
					t.Errorf("fields mismatch (-want +got):\n%s", diff)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer a.Close()
			if diff := cmp.Diff(tt.offered, a.Config().Tools); diff != "" {
				t.Errorf("Config().Tools mismatch (-want +got):\n%s", diff)
			}
			if _, err := a.Submit(ctxT(t), conductor.Text("go")); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.offered, m.Requests()[0].Tools); diff != "" {
				t.Errorf("tools sent to the model mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
