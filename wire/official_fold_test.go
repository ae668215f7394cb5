package wire

import (
	"bytes"
	"context"
	"encoding/json"
	"os/exec"
	"testing"
	"time"

	"github.com/batonrt/baton/wire/agui"
)

// officialFold folds streams, one AG-UI run each, onto the messages a
// client holds with the official @ag-ui/client (apply.mjs), and returns
// the messages it ends with. A complaint of the client fails the test.
func officialFold(t *testing.T, initial []agui.Message, streams ...[]sseFrame) []agui.Message {
	t.Helper()
	dir := aguiClientDir(t)
	in := struct {
		Messages []agui.Message `json:"messages"`
		Streams  [][]agui.Event `json:"streams"`
	}{Messages: initial, Streams: [][]agui.Event{}}
	for _, frames := range streams {
		events := []agui.Event{}
		for _, f := range frames {
			events = append(events, f.Event)
		}
		in.Streams = append(in.Streams, events)
	}
	body, err := json.Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "node", "apply.mjs")
	cmd.Dir = dir
	cmd.Stdin = bytes.NewReader(body)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node apply.mjs: %v\nstderr:\n%s", err, stderr.String())
	}
	var out struct {
		Messages []agui.Message `json:"messages"`
		Errors   []string       `json:"errors"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &out); err != nil {
		t.Fatalf("apply.mjs output %q: %v", stdout.String(), err)
	}
	if len(out.Errors) > 0 {
		t.Fatalf("the official client complains: %v", out.Errors)
	}
	return out.Messages
}
