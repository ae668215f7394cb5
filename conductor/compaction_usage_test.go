package conductor_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
)

// TestCompactionCountsTheSummaryCall: the tokens each summary call used
// (10 in, 3 out, as say reports them) count in the run's and the
// session's usage beside the run's six tool-calling replies (20 in, 5
// out) and its answer; the summary calls are not among the run's model
// calls. Before, a billed summary call counted nothing.
func TestCompactionCountsTheSummaryCall(t *testing.T) {
	snap, m, _ := compactingRun(t, false)
	n := int64(m.summaries.Load())
	if n == 0 {
		t.Fatal("no summary was asked for")
	}
	want := contract.Usage{InputTokens: 6*20 + 10 + n*10, OutputTokens: 6*5 + 3 + n*3, ModelCalls: 7, ToolCalls: 6}
	got := snap.RunUsage
	got.WallNanos = 0
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("run usage after %d summaries (-want +got):\n%s", n, diff)
	}
	got = snap.SessionUsage
	got.WallNanos = 0
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("session usage after %d summaries (-want +got):\n%s", n, diff)
	}
}
