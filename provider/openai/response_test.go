package openai

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
	sdk "github.com/openai/openai-go/v3"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/endpoint"
)

// frame is a chat.completion.chunk with id, model and one choice's
// delta and finish_reason.
func frame(id, model, delta, finish string) string {
	f := `null`
	if finish != "" {
		f = `"` + finish + `"`
	}
	return `{"id":"` + id + `","object":"chat.completion.chunk","created":1,"model":"` + model + `","choices":[{"index":0,"delta":` + delta + `,"finish_reason":` + f + `}]}`
}

// TestDecodeResponse: the model and id the frames name come once, as the
// first chunk, with the first chunk the reply yields; a frame that only
// names the reply yields nothing of its own.
func TestDecodeResponse(t *testing.T) {
	role := `{"role":"assistant","content":""}`
	hi := `{"content":"Hi"}`
	tests := []struct {
		name   string
		frames []string
		want   [][]turn.Chunk // per frame, then End
	}{
		{"named by the role frame, told with the first text", []string{
			frame("c1", "m-1", role, ""), frame("c1", "m-1", hi, ""), frame("c1", "m-1", `{}`, "stop"),
		}, [][]turn.Chunk{nil, {said("m-1", "c1"), text("Hi")}, nil, {stop(contract.StopEndTurn)}}},
		{"no content: told with the stop", []string{
			frame("c1", "m-1", role, ""), frame("c1", "m-1", `{}`, "stop"),
		}, [][]turn.Chunk{nil, nil, {said("m-1", "c1"), stop(contract.StopEndTurn)}}},
		{"frames that name nothing", []string{
			frame("", "", hi, ""), frame("", "", `{}`, "stop"),
		}, [][]turn.Chunk{{text("Hi")}, nil, {stop(contract.StopEndTurn)}}},
		{"the id named only after the model", []string{
			frame("", "m-1", role, ""), frame("c1", "m-1", hi, ""), frame("c1", "m-1", `{}`, "stop"),
		}, [][]turn.Chunk{nil, {said("m-1", "c1"), text("Hi")}, nil, {stop(contract.StopEndTurn)}}},
		{"a later frame's other id is not a second reply", []string{
			frame("c1", "m-1", hi, ""), frame("c2", "m-2", hi, ""), frame("c2", "m-2", `{}`, "stop"),
		}, [][]turn.Chunk{{said("m-1", "c1"), text("Hi")}, {text("Hi")}, nil, {stop(contract.StopEndTurn)}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var d decoder
			var got [][]turn.Chunk
			for _, f := range tt.frames {
				var c sdk.ChatCompletionChunk
				if err := json.Unmarshal([]byte(f), &c); err != nil {
					t.Fatal(err)
				}
				got = append(got, d.Decode(c))
			}
			end, err := d.End()
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, end)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("chunks per frame mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestRoleFrameAloneStillFallsBack: a server that streams the role frame
// and then breaks has not begun its reply, so the driver still asks once
// without streaming, and the reply names the model and id of the
// completion that answered.
func TestRoleFrameAloneStillFallsBack(t *testing.T) {
	var plain atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body map[string]any
		b, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(b, &body)
		if body["stream"] == true {
			w.Header().Set("Content-Type", "text/event-stream")
			io.WriteString(w, "data: "+frame("c-stream", "m-stream", `{"role":"assistant","content":""}`, "")+"\n\n")
			return
		}
		plain.Add(1)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"c-plain","object":"chat.completion","created":1,"model":"m-plain","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Hi"}}]}`)
	}))
	defer srv.Close()
	d := turn.NewDriver(New(endpoint.BaseURL(srv.URL), endpoint.HTTPClient(srv.Client())), turn.Options{MaxRetries: turn.NoRetries})
	sig, resp := d.RunReply(context.Background(), basicRequest(), nil)
	if r, ok := sig.(contract.ModelReplied); !ok || r.Reply.Text() != "Hi" || plain.Load() != 1 {
		t.Fatalf("got %#v after %d plain calls, want the plain reply \"Hi\" after one", sig, plain.Load())
	}
	if diff := cmp.Diff(turn.Response{Model: "m-plain", ID: "c-plain"}, resp); diff != "" {
		t.Errorf("response mismatch (-want +got):\n%s", diff)
	}
}
