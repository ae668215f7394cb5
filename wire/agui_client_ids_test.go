package wire

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// A run the official AG-UI client follows whose model calls stream as
// they are stored, whole or cut and resumed with Last-Event-ID, gets no
// MESSAGES_SNAPSHOT: a snapshot is only for a client that holds what the
// session does not. A resume keeps every message the client had under
// its id, so the client grows them instead of showing them twice.
func TestAGUIClientRunAsStreamedKeepsItsMessages(t *testing.T) {
	dir := aguiClientDir(t)
	for _, mode := range []string{"full", "reconnect", "reconnect-reasoning", "reconnect-text", "reconnect-args"} {
		t.Run(mode, func(t *testing.T) {
			var res clientResult
			thread := "ids-" + mode
			if mode == "full" {
				res = runClient(t, dir, newEnv(t, weatherScript).srv.URL, thread, mode)
			} else {
				e := newGatedEnv(t, weatherScript, make(chan struct{}))
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				go func() {
					for e.resumes.Load() == 0 {
						select {
						case <-ctx.Done():
							return
						case <-time.After(time.Millisecond):
						}
					}
					close(e.toolGate)
				}()
				res = runClient(t, dir, e.srv.URL, thread, mode)
			}
			t.Run("no snapshot when nothing diverged", func(t *testing.T) {
				if res.Snapshots != 0 {
					t.Errorf("the client got %d MESSAGES_SNAPSHOT for a run that streamed as stored", res.Snapshots)
				}
			})
			t.Run("message ids stable across the reconnect", func(t *testing.T) {
				var after []string
				for _, raw := range res.Messages {
					var m struct {
						ID string `json:"id"`
					}
					if err := json.Unmarshal(raw, &m); err != nil {
						t.Fatal(err)
					}
					after = append(after, m.ID)
				}
				if len(after) < len(res.IDsBefore) {
					t.Fatalf("the client holds %d messages after the resume, %d before: %v, %v", len(after), len(res.IDsBefore), after, res.IDsBefore)
				}
				if diff := cmp.Diff(res.IDsBefore, after[:len(res.IDsBefore)]); diff != "" {
					t.Errorf("messages the client had changed ids across the resume (-before +after):\n%s", diff)
				}
			})
		})
	}
}
