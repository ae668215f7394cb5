package compactor_test

import (
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite golden files under testdata/")

func TestSummaryPromptGolden(t *testing.T) {
	thinking := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
		{Kind: contract.BlockThinking, Text: "private scratch work"},
		{Kind: contract.BlockRedactedThinking, Signature: "EnC0-opaque-data"},
		contract.TextBlock("Let me look at the config."),
		contract.CallBlock(contract.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"config.yaml"}`}),
		contract.CallBlock(contract.ToolCall{ID: "c2", Name: "read_file", Arguments: `{"path":"missing.yaml"}`}),
	}}
	outs := contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
		contract.ResultBlock(contract.ToolResult{CallID: "c1", Name: "read_file", Content: "port: 8080\n" + strings.Repeat("x", compactor.MaxPromptOutput)}),
		contract.ResultBlock(contract.ToolResult{CallID: "c2", Name: "read_file", Content: "no such file", IsError: true}),
	}}
	img := contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "file:///screen.png"}}}}
	turns := []contract.Turn{
		marked(contract.MarkSummary, "Earlier the user set up the project."),
		marked(contract.MarkArchive, "[archive: not shown to the summariser]"),
		user("Why does the server listen on the wrong port?"),
		thinking, outs, img,
		assistant("The config sets port 8080."),
	}
	got := compactor.SummaryPrompt(turns)
	path := filepath.Join("testdata", "summary_prompt.golden")
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run go test -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	for _, gone := range []string{"private scratch work", "EnC0-opaque-data", "not shown to the summariser"} {
		if strings.Contains(got, gone) {
			t.Errorf("prompt contains %q", gone)
		}
	}
}

func TestSummaryPromptClipsOnRuneBoundary(t *testing.T) {
	long := strings.Repeat("é", compactor.MaxPromptOutput)
	got := compactor.SummaryPrompt([]contract.Turn{results("1"), {Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "2", Name: "t", Content: long})}}})
	if !strings.Contains(got, "[... 2000 more bytes]") {
		t.Errorf("prompt does not say how much was clipped:\n%s", got[len(got)-200:])
	}
	if !strings.Contains(got, strings.Repeat("é", compactor.MaxPromptOutput/2)+"\n[...") {
		t.Error("clipped output is not whole runes")
	}
}

func TestSummaryPromptClipsLongBlocks(t *testing.T) {
	args := `{"content":"` + strings.Repeat("é", compactor.MaxPromptOutput) + `"}`
	text := strings.Repeat("ü", compactor.MaxPromptText)
	tests := []struct {
		name string
		turn contract.Turn
		kept string
		cut  string
	}{
		{
			name: "call arguments",
			turn: contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "write_file", Arguments: args})}},
			kept: "[assistant called write_file]\n" + `{"content":"` + strings.Repeat("é", (compactor.MaxPromptOutput-12)/2) + "\n[... 2014 more bytes]\n\n",
		},
		{
			name: "inline image",
			turn: contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "data:image/png;base64," + strings.Repeat("iVBO", 50000)}}}},
			kept: "[user image: inline data, 200022 bytes]\n\n",
		},
		{
			name: "text",
			turn: user(text),
			kept: "[user]\n" + strings.Repeat("ü", compactor.MaxPromptText/2) + "\n[... 8000 more bytes]\n\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compactor.SummaryPrompt([]contract.Turn{tt.turn})
			body := strings.TrimSuffix(got[strings.Index(got, "<transcript>\n")+len("<transcript>\n"):], "</transcript>\n")
			if diff := cmp.Diff(tt.kept, body); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
