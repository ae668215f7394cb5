package conductor

import (
	"context"
	"errors"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// startCompaction asks the provider for a summary of the oldest turns.
// The request goes through the before-model hooks, marked Summary, as
// every model call does: a hook that takes secrets out of what the model
// reads, or adds what the provider requires, must see the history the
// summary prompt quotes too. A blocked summary falls back as a failed
// one does.
func (a *Agent) startCompaction(turns []contract.Turn, cut int) {
	run := a.run
	req := turn.SummaryRequest(a.rules.Config().Model, compactor.SummaryPrompt(turns))
	a.spawn(run, jobFunc(func() task {
		ctx, cancel := context.WithCancel(run.ctx)
		defer cancel()
		summary, usage, err := a.summarize(ctx, &req)
		if run.ctx.Err() != nil {
			return task{}
		}
		var sig contract.Signal
		if err != nil || summary == "" {
			reason := "empty summary"
			if err != nil {
				reason = err.Error()
			}
			sig = contract.CompactionFailed{Reason: reason, Usage: usage, At: a.now()}
		} else {
			// The store keeps valid UTF-8 only, and the rules count the
			// summary's tokens from its text: the run must go on with
			// the text replay will read.
			summary = validText(summary)
			observe(a, "on_compaction", func(h CompactionHook) error { h(ctx, summary); return nil })
			sig = contract.Compacted{Summary: summary, Cut: cut, Usage: usage, At: a.now()}
		}
		return task{sig: sig}
	}))
}

// summarize sends a summary request once the before-model hooks let it
// go; what they rewrote is not recorded, since the summary it brings
// back is. A reply goes to the after-model hooks, its turn marked
// MarkSummary, before it becomes the summary: a host that audits what
// the model answered must see the text the history will hold. The usage
// is what a reply reported, kept with the summary so the run counts it.
func (a *Agent) summarize(ctx context.Context, req *contract.ModelRequest) (string, contract.Usage, error) {
	if block, _ := a.runBeforeModel(ctx, req); block != "" {
		return "", contract.Usage{}, errors.New("conductor: summary request " + block)
	}
	if req.History.Len() == 0 {
		return "", contract.Usage{}, errors.New("conductor: summary request has no history")
	}
	answer := turn.NewDriver(a.deps.Model.Provider, a.deps.Model.driverOptions(a.now, a.log)).Run(ctx, *req, nil)
	var usage contract.Usage
	if reply, ok := answer.(contract.ModelReplied); ok {
		usage = reply.Usage
		if a.deps.Hooks.Len() > 0 {
			reply.Reply.Mark = contract.MarkSummary
			observe(a, "after_model", func(h AfterModelHook) error { return h(ctx, reply) })
		}
	}
	summary, err := turn.SummaryOf(ctx, answer)
	return summary, usage, err
}
