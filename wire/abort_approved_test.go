package wire

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
	"github.com/batonrt/baton/wire/aisdk"
)

// An aborted run's AI SDK stream ends the part of a delegated call it cut
// off, approved and running in its tool, with an error output before the
// abort chunk, in the live stream and in its replay. The part stayed
// approval-responded, in a step of its own, which the AI SDK's Chat reads
// as a message whose approvals are all answered: it sent the message back
// at once, and the server refused it.
func TestAISDKAbortEndsTheApprovedDelegatedCallsPart(t *testing.T) {
	gate, started := make(chan struct{}), make(chan struct{}, 1)
	t.Cleanup(func() { close(gate) })
	del := dispatch.MustFunc("delete_file", "Delete a file.", func(ctx context.Context, in struct {
		Path string `json:"path"`
	}) (string, error) {
		started <- struct{}{}
		select {
		case <-gate:
		case <-ctx.Done():
			return "", ctx.Err()
		}
		return "deleted " + in.Path, nil
	}, dispatch.NeedsApproval())
	cfg := contract.AgentConfig{Model: "m", Delegates: []contract.Delegate{
		{Name: "cleaner", Config: contract.AgentConfig{Model: "m", Tools: []contract.ToolDescriptor{{Name: "delete_file"}}}},
	}}
	s := startFlowServer(t, t.TempDir(), ProtocolAISDK, cfg, &script{replies: delegatingCleaner()}, nil, del)
	first, answer := delegatedApprovalBodies(ProtocolAISDK, true)
	if code, b := post(t, s.srv.URL, first); code != http.StatusOK || !strings.Contains(b, "call_d/d1") {
		t.Fatalf("first stream: %d, want the delegate's approval request call_d/d1:\n%s", code, b)
	}
	req, err := http.NewRequest(http.MethodPost, s.srv.URL, strings.NewReader(answer))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	streamed := make(chan []byte, 1)
	go func() {
		b, _ := io.ReadAll(resp.Body)
		streamed <- b
	}()
	select {
	case <-started:
	case <-time.After(10 * time.Second):
		t.Fatal("the approved call never started")
	}

	abort, err := http.Post(s.srv.URL+"/x1/abort", "application/json", nil)
	if err != nil {
		t.Fatal(err)
	}
	abort.Body.Close()
	if abort.StatusCode != http.StatusNoContent {
		t.Fatalf("abort: %d, want 204", abort.StatusCode)
	}
	var live []byte
	select {
	case live = <-streamed:
	case <-time.After(10 * time.Second):
		t.Fatal("the aborted run's stream did not end")
	}
	checkStoppedCallEnds(t, "live", string(live), "call_d/d1")
}

// checkStoppedCallEnds checks that the last chunks of stream for call id
// are an error output, then the abort.
func checkStoppedCallEnds(t *testing.T, name, stream, id string) {
	t.Helper()
	_, chunks := readUI(t, strings.NewReader(stream))
	var got []string
	for _, c := range chunks {
		if c.ToolCallID == id || c.Type == aisdk.Abort {
			got = append(got, c.Type)
		}
	}
	if n := len(got); n < 2 || got[n-2] != aisdk.ToolOutputError || got[n-1] != aisdk.Abort {
		t.Errorf("%s: the chunks of %s and the abort are %q, want it to end with %s before %s\n%s", name, id, got, aisdk.ToolOutputError, aisdk.Abort, stream)
	}
}
