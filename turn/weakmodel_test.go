package turn_test

import (
	"context"
	"iter"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func TestWeakModelReplies(t *testing.T) {
	tests := []struct {
		name      string
		textCalls bool
		chunks    []turn.Chunk
		want      contract.ModelReplied
	}{{
		name: "calls named None, null or nothing are dropped",
		chunks: []turn.Chunk{
			text("No tool needed."),
			callStart(0, "a", "None"), callEnd(0), callStart(1, "b", "null"), callArgs(1, `{}`), callEnd(1), callStart(2, "c", " "), callEnd(2),
			stop(contract.StopToolUse),
		},
		want: contract.ModelReplied{Reply: assistant(contract.TextBlock("No tool needed.")), Stop: contract.StopEndTurn, At: 42},
	}, {
		name:   "a real call beside a None one stays",
		chunks: []turn.Chunk{callStart(0, "a", "None"), callEnd(0), callStart(1, "b", "get_weather"), callArgs(1, `{"city":"Oslo"}`), callEnd(1), stop(contract.StopToolUse)},
		want:   contract.ModelReplied{Reply: assistant(call("b", "get_weather", `{"city":"Oslo"}`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name:      "text that is one JSON call becomes the call when opted in",
		textCalls: true,
		chunks:    []turn.Chunk{text(`{"name": "get_weather", "arguments": {"city": "Oslo"}}`), stop(contract.StopEndTurn)},
		want:      contract.ModelReplied{Reply: assistant(call("", "get_weather", `{"city": "Oslo"}`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name:      "a fenced call with parameters as a string",
		textCalls: true,
		chunks:    []turn.Chunk{text("```json\n{\"tool\": \"Get_Weather\", \"parameters\": \"{\\\"city\\\": \\\"Rome\\\"}\"}\n```"), stop(contract.StopEndTurn)},
		want:      contract.ModelReplied{Reply: assistant(call("", "get_weather", `{"city": "Rome"}`)), Stop: contract.StopToolUse, At: 42},
	}, {
		name:   "the same text stays text when not opted in",
		chunks: []turn.Chunk{text(`{"name": "get_weather", "arguments": {"city": "Oslo"}}`), stop(contract.StopEndTurn)},
		want:   contract.ModelReplied{Reply: assistant(contract.TextBlock(`{"name": "get_weather", "arguments": {"city": "Oslo"}}`)), Stop: contract.StopEndTurn, At: 42},
	}, {
		name:      "JSON naming a tool not offered is an answer",
		textCalls: true,
		chunks:    []turn.Chunk{text(`{"name": "rm_rf", "arguments": {}}`), stop(contract.StopEndTurn)},
		want:      contract.ModelReplied{Reply: assistant(contract.TextBlock(`{"name": "rm_rf", "arguments": {}}`)), Stop: contract.StopEndTurn, At: 42},
	}, {
		name:      "text around the JSON keeps it an answer",
		textCalls: true,
		chunks:    []turn.Chunk{text(`I would call {"name": "get_weather"} now.`), stop(contract.StopEndTurn)},
		want:      contract.ModelReplied{Reply: assistant(contract.TextBlock(`I would call {"name": "get_weather"} now.`)), Stop: contract.StopEndTurn, At: 42},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			opts := testOptions(&recorder{})
			opts.TextToolCalls = tt.textCalls
			got := turn.NewDriver(newFake(play{chunks: tt.chunks}), opts).Run(context.Background(), weatherReq, nil)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWaitingPulseWhileTheModelIsSilent(t *testing.T) {
	r := &recorder{}
	opts := testOptions(r)
	opts.WaitingAfter = 5 * time.Millisecond
	release := make(chan struct{})
	p := &slowFake{release: release, chunks: []turn.Chunk{text("late"), stop(contract.StopEndTurn)}}
	done := make(chan contract.Signal, 1)
	go func() { done <- turn.NewDriver(p, opts).Run(context.Background(), weatherReq, r.publish) }()
	deadline := time.Now().Add(5 * time.Second)
	for !slices.Contains(r.kindsLocked(), contract.EvWaiting) && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	close(release)
	got := <-done
	kinds := r.kindsLocked()
	if !slices.Contains(kinds, contract.EvWaiting) || kinds[len(kinds)-1] != contract.EvTextDelta {
		t.Fatalf("events %v: want waiting pulses, then the text", kinds)
	}
	if _, ok := got.(contract.ModelReplied); !ok {
		t.Fatalf("got %#v", got)
	}
	// No pulse outlives the call.
	n := len(r.kindsLocked())
	time.Sleep(20 * time.Millisecond)
	if len(r.kindsLocked()) != n {
		t.Error("a waiting event came after the call ended")
	}
}

func TestFallbackWithoutStreaming(t *testing.T) {
	reply := []turn.Chunk{text("from the plain call"), stop(contract.StopEndTurn)}
	tests := []struct {
		name       string
		stream     play
		noFallback bool
		wantReply  bool
		completes  int
	}{
		{"stream fails before its first chunk", play{err: &turn.ProviderError{Failure: contract.FailStream, Message: "streaming unsupported"}}, false, true, 1},
		{"opted out", play{err: &turn.ProviderError{Failure: contract.FailStream, Message: "streaming unsupported"}}, true, false, 0},
		{"after a chunk it is a normal failure", play{chunks: []turn.Chunk{text("part")}, err: &turn.ProviderError{Failure: contract.FailStream, Message: "cut"}}, false, false, 0},
		{"auth fails both ways", play{err: &turn.ProviderError{Failure: contract.FailAuth, Message: "bad key"}}, false, false, 0},
		{"a server error is retried, not a reason to stop streaming", play{err: &turn.ProviderError{Failure: contract.FailServer, Message: "500"}}, false, false, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			opts := testOptions(r)
			opts.MaxRetries = turn.NoRetries
			opts.NoFallback = tt.noFallback
			p := &completer{fake: newFake(tt.stream), reply: reply}
			got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, r.publish)
			rep, ok := got.(contract.ModelReplied)
			if ok != tt.wantReply || p.completes != tt.completes {
				t.Fatalf("got %#v after %d plain calls", got, p.completes)
			}
			if ok && rep.Reply.Text() != "from the plain call" {
				t.Errorf("reply %q", rep.Reply.Text())
			}
		})
	}
}

// completer is a fake that also answers without streaming.
type completer struct {
	*fake
	reply     []turn.Chunk
	completes int
}

func (c *completer) Complete(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
	c.completes++
	return c.reply, nil
}

// slowFake streams its chunks once release is closed.
type slowFake struct {
	release <-chan struct{}
	chunks  []turn.Chunk
}

func (s *slowFake) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		select {
		case <-s.release:
		case <-ctx.Done():
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		for _, c := range s.chunks {
			if !yield(c, nil) {
				return
			}
		}
	}
}

func (r *recorder) kindsLocked() []contract.EventKind {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.kinds()
}
