package cadencetest

import (
	"github.com/batonrt/baton/contract"
	"pgregory.net/rapid"
)

// Model is the model name Config uses: unknown to the token estimator, so
// estimates are the character fallback and quick.
const Model = "cadencetest-model"

// Tools are the tools Config registers, one of each kind the rules treat
// differently.
func Tools() []contract.ToolDescriptor {
	return []contract.ToolDescriptor{
		{Name: "echo"},
		{Name: "idem", Idempotent: true},
		{Name: "serial", Sequential: true},
		{Name: ApprovalTool, NeedsApproval: true},
		{Name: QuestionTool, AsksHuman: true},
	}
}

// ApprovalTool is the tool Config registers that needs approval.
const ApprovalTool = "ask"

// QuestionTool is the tool Config registers that asks a person.
const QuestionTool = "question"

// UnknownTool is a tool name no Config registers.
const UnknownTool = "missing"

// Config draws a valid agent configuration with small limits, so runs
// reach the turn cap, the loop guard and compaction within a few dozen
// signals.
func Config() *rapid.Generator[contract.AgentConfig] {
	return rapid.Custom(func(t *rapid.T) contract.AgentConfig {
		warn := rapid.IntRange(1, 3).Draw(t, "loop_warn")
		return contract.AgentConfig{
			Model:    Model,
			System:   "you are a test",
			Tools:    Tools(),
			MaxTurns: rapid.IntRange(1, 8).Draw(t, "max_turns"),
			LoopGuard: contract.LoopGuard{
				Warn:     warn,
				Critical: warn + rapid.IntRange(1, 2).Draw(t, "loop_gap"),
			},
			Revision: rapid.IntRange(0, contract.CurrentRevision).Draw(t, "revision"),
			FailedRuns: rapid.SampledFrom([]contract.FailedRunsPolicy{
				contract.FailedRunsDefault, contract.FailedRunsExclude, contract.FailedRunsKeep,
			}).Draw(t, "failed_runs"),
			Compaction: contract.CompactionPolicy{
				Disabled:      rapid.IntRange(0, 4).Draw(t, "compaction_off") == 0,
				TriggerRatio:  0.5,
				KeepRecent:    rapid.IntRange(1, 4).Draw(t, "keep_recent"),
				ContextWindow: rapid.IntRange(60, 400).Draw(t, "context_window"),
				MaxMessages:   rapid.SampledFrom([]int{0, 0, 6, 12}).Draw(t, "max_messages"),
				MaxChars:      rapid.SampledFrom([]int{0, 0, 200, 800}).Draw(t, "max_chars"),
			},
			ToolConcurrency: rapid.IntRange(1, 3).Draw(t, "tool_concurrency"),
			Delegates:       []contract.Delegate{{Name: DelegateName, Config: contract.AgentConfig{Model: Model}}},
		}
	})
}

// DelegateName is the delegate Config declares; the model sees it as the
// tool contract.DelegatePrefix + DelegateName.
const DelegateName = "helper"
