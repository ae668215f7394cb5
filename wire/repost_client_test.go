package wire

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// The official clients, whose first stream broke after its first text,
// post the same message again (the AG-UI client the same RunAgentInput,
// the AI SDK's Chat its regenerate()) and are left with the whole reply
// of the one run, without an error; the model was called once. The
// Chat's regenerate after a run that failed runs the message again.
func TestOfficialClientsPostingAMessageAgainGetItsRun(t *testing.T) {
	dir := aiSDKDir(t)
	for _, c := range []struct {
		proto   Protocol
		mode    string
		failing int64
		calls   int64
		users   []string
	}{
		{ProtocolAGUI, "agui", 0, 1, []string{"hi"}},
		{ProtocolAISDK, "ui", 0, 1, []string{"hi"}},
		{ProtocolAISDK, "ui-failed", 1, 2, []string{"hi", "hi"}},
	} {
		t.Run(c.mode, func(t *testing.T) {
			s := newRepostServer(t, c.proto)
			s.failing.Store(c.failing)
			var res struct {
				Messages []struct {
					Role    string `json:"role"`
					Content string `json:"content"`
					Text    string `json:"text"`
				} `json:"messages"`
				Errors []string `json:"errors"`
			}
			if err := json.Unmarshal(runNode(t, dir, nil, "again.mjs", s.srv.URL, "t1", c.mode), &res); err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, m := range res.Messages {
				got = append(got, m.Role+": "+m.Content+m.Text)
			}
			if diff := cmp.Diff([]string{"user: hi", "assistant: reply to hi"}, got); diff != "" {
				t.Errorf("client's messages mismatch (-want +got):\n%s", diff)
			}
			if len(res.Errors) > 0 {
				t.Errorf("the client saw errors after posting again: %q", res.Errors)
			}
			if n := s.calls.Load(); n != c.calls {
				t.Errorf("%d model calls, want %d", n, c.calls)
			}
			if diff := cmp.Diff(c.users, s.userTexts()); diff != "" {
				t.Errorf("user messages mismatch (-want +got):\n%s", diff)
			}
		})
	}
}
