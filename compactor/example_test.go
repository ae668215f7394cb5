package compactor_test

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
)

func exampleHistory() []contract.Turn {
	return []contract.Turn{
		contract.UserText("Which port does the server use?"),
		{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "c1", Name: "read_file", Arguments: `{"path":"config.yaml"}`})}},
		{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "c1", Name: "read_file", Content: strings.Repeat("port: 8080\n", 40)})}},
		{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("It listens on 8080.")}},
		contract.UserText("Change it to 9090."),
	}
}

func ExampleEstimate() {
	turn := contract.UserText("tiktoken is great!")
	fmt.Println(compactor.Estimate("gpt-4", turn))        // cl100k_base: 6 tokens of text
	fmt.Println(compactor.Estimate("my-local-llm", turn)) // fallback: 18 ASCII bytes / 3
	// Output:
	// 12
	// 12
}

func ExampleShouldCompact() {
	p := contract.CompactionPolicy{TriggerRatio: 0.8, ContextWindow: 10_000}
	fmt.Println(compactor.ShouldCompact(7_999, p))
	fmt.Println(compactor.ShouldCompact(8_000, p))
	p.Disabled = true
	fmt.Println(compactor.ShouldCompact(9_000, p))
	// Output:
	// false
	// true
	// false
}

func ExampleFindCutPoint() {
	turns := exampleHistory()
	// Keeping 3 would start the kept part with the tool turn, so the cut
	// moves back before the call that turn answers.
	fmt.Println(compactor.FindCutPoint(turns, 3))
	fmt.Println(compactor.FindCutPoint(turns, 2))
	fmt.Println(compactor.FindCutPoint(turns, 5))
	// Output:
	// 1 true
	// 3 true
	// 0 false
}

func ExampleCondense() {
	turns := exampleHistory()
	for i := range turns {
		turns[i].Tokens = compactor.Estimate("gpt-4o", turns[i])
	}
	cut, _ := compactor.FindCutPoint(turns, 2)
	after := compactor.Condense("gpt-4o", turns, cut, "The user asked for the port; config.yaml says 8080.")
	for _, t := range after {
		fmt.Printf("%s %q\n", t.Role, t.Mark)
	}
	a, _ := compactor.ArchiveOf(after[1])
	fmt.Println("replaced", a.Count, "turns; shrinks:", compactor.Shrinks(turns, after))
	// Output:
	// user "summary"
	// user "archive"
	// assistant ""
	// user ""
	// replaced 3 turns; shrinks: true
}

func ExampleShrinks() {
	before := []contract.Turn{{Role: contract.RoleUser, Tokens: 120}, {Role: contract.RoleAssistant, Tokens: 80}}
	longSummary := []contract.Turn{{Role: contract.RoleUser, Mark: contract.MarkSummary, Tokens: 190}, {Role: contract.RoleUser, Mark: contract.MarkArchive, Tokens: 30}}
	fmt.Println(compactor.Shrinks(before, longSummary))
	// Output:
	// false
}

func ExampleDropToolOutputs() {
	after := compactor.DropToolOutputs("gpt-4o", exampleHistory(), 3)
	r := after[2].Results()[0]
	fmt.Println(r.CallID, r.Content)
	// Output:
	// c1 [output dropped to save context]
}

func ExampleSummaryPrompt() {
	prompt := compactor.SummaryPrompt(exampleHistory()[:1])
	fmt.Println(prompt[strings.Index(prompt, "<transcript>"):])
	// Output:
	// <transcript>
	// [user]
	// Which port does the server use?
	//
	// </transcript>
}

func ExampleArchiveOf() {
	turns := exampleHistory()
	marker := compactor.Condense("", turns, 3, "summary")[1]
	a, ok := compactor.ArchiveOf(marker)
	fmt.Println(ok, a.Count, a.First == compactor.TurnHash(turns[0]), a.Last == compactor.TurnHash(turns[2]))
	// Output:
	// true 3 true true
}

func ExampleTurnHash() {
	fmt.Println(len(compactor.TurnHash(contract.UserText("hi"))))
	// Output:
	// 64
}
