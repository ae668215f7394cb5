package turntest

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/batonrt/baton/contract"
)

var checks = map[Case]func(*testing.T, outcome){
	CaseText: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantText(t, r, "Hello, world.")
		wantStop(t, r, contract.StopEndTurn)
		if r.Usage.InputTokens != 10 || r.Usage.OutputTokens != 5 {
			t.Errorf("turntest: usage input %d output %d, want 10 and 5", r.Usage.InputTokens, r.Usage.OutputTokens)
		}
	},
	CaseTools: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantCalls(t, r, []wantCall{{"call_1", "get_weather", `{"city":"Paris"}`}})
		wantStop(t, r, contract.StopToolUse)
	},
	CaseParallelTools: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantCalls(t, r, []wantCall{{"call_1", "get_weather", `{"city":"Paris"}`}, {"call_2", "get_weather", `{"city":"Tokyo"}`}})
		wantStop(t, r, contract.StopToolUse)
	},
	CaseThinking: func(t *testing.T, o outcome) {
		r := replied(t, o)
		b := r.Reply.Blocks
		if len(b) == 0 || b[0].Kind != contract.BlockThinking || b[0].Text != "Let me think." || b[0].Signature != "sig-1" {
			t.Errorf("turntest: first block %s, want thinking \"Let me think.\" signed \"sig-1\"", describe(b))
		}
		wantText(t, r, "Done.")
		wantStop(t, r, contract.StopEndTurn)
	},
	CaseUsage: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantText(t, r, "Hi.")
		u := r.Usage
		if u.InputTokens != 100 || u.OutputTokens != 20 || u.CachedTokens != 30 {
			t.Errorf("turntest: usage input %d output %d cached %d, want 100, 20, 30", u.InputTokens, u.OutputTokens, u.CachedTokens)
		}
	},
	CaseErrorFrame: func(t *testing.T, o outcome) {
		f := failed(t, o)
		if f.Message == "" {
			t.Error("turntest: an in-stream error frame gave ModelFailed without a message")
		}
	},
	CaseRateLimited: func(t *testing.T, o outcome) {
		wantText(t, replied(t, o), "Hello, world.")
		wantRetries(t, o, 1)
		if len(o.sleeps) != 1 {
			t.Errorf("turntest: the driver slept %d times (%v), want once for Retry-After", len(o.sleeps), o.sleeps)
		} else if o.sleeps[0] > Options(CaseRateLimited, nil).MaxBackoff {
			t.Errorf("turntest: slept %s after Retry-After: 0, want at most the backoff cap", o.sleeps[0])
		}
	},
	CaseServerErrorThenOK: func(t *testing.T, o outcome) {
		wantText(t, replied(t, o), "Hello, world.")
		wantRetries(t, o, 1)
	},
	CaseCutMidToolCall: func(t *testing.T, o outcome) {
		f := failed(t, o)
		if f.Failure != contract.FailStream {
			t.Errorf("turntest: failure %q (%s), want %q: a stream that stops without a stop is broken", f.Failure, f.Message, contract.FailStream)
		}
		wantRetries(t, o, MaxRetries)
	},
	CaseMalformedArguments: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantCalls(t, r, []wantCall{{"call_1", "get_weather", `{"city":"Paris"}`}})
	},
	CaseMaxTokensMidCall: func(t *testing.T, o outcome) {
		r := replied(t, o)
		if r.Stop != contract.StopMaxTokens {
			t.Errorf("turntest: stop %q, want %q: a reply the token limit cut must say so, or the driver closes the cut arguments and runs the call with them (a path or a command half written)", r.Stop, contract.StopMaxTokens)
		}
		got := r.Reply.Calls()
		if len(got) != 1 || got[0].ID != "call_1" || got[0].Name != "get_weather" {
			t.Fatalf("turntest: calls %s, want the one cut call call_1 get_weather", describe(got))
		}
		if args := got[0].Arguments; args != `{"city": "Par` {
			t.Errorf("turntest: the cut call's arguments are %s, want them as they came, {\"city\": \"Par: a call the token limit cut must not reach its tool as if whole", args)
		}
	},
	CaseCutAfterStop: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantText(t, r, "Hello, world.")
		wantStop(t, r, contract.StopEndTurn)
		wantRetries(t, o, 0)
	},
	CaseSplitCharacters: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantText(t, r, "Grüße aus 東京.")
		wantCalls(t, r, []wantCall{{"call_1", "get_weather", `{"city":"Zürich"}`}})
		wantStop(t, r, contract.StopToolUse)
	},
	CaseResponse: func(t *testing.T, o outcome) {
		r := replied(t, o)
		wantText(t, r, "Hello, world.")
		wantStop(t, r, contract.StopEndTurn)
		wantResponse(t, o)
	},
	CaseNeverEnds: func(t *testing.T, o outcome) {
		if f := failed(t, o); f.Failure != contract.FailTimeout {
			t.Errorf("turntest: failure %q (%s), want %q", f.Failure, f.Message, contract.FailTimeout)
		}
	},
}

func replied(t *testing.T, o outcome) contract.ModelReplied {
	t.Helper()
	r, ok := o.sig.(contract.ModelReplied)
	if !ok {
		t.Fatalf("turntest: got %s %s, want model_replied", o.sig.SignalKind(), describe(o.sig))
	}
	wantDeltasReassemble(t, o, r)
	return r
}

func failed(t *testing.T, o outcome) contract.ModelFailed {
	t.Helper()
	f, ok := o.sig.(contract.ModelFailed)
	if !ok {
		t.Fatalf("turntest: got %s %s, want model_failed", o.sig.SignalKind(), describe(o.sig))
	}
	return f
}

func wantText(t *testing.T, r contract.ModelReplied, want string) {
	t.Helper()
	if got := r.Reply.Text(); got != want {
		t.Errorf("turntest: reply text %q, want %q (blocks %s)", got, want, describe(r.Reply.Blocks))
	}
}

func wantStop(t *testing.T, r contract.ModelReplied, want contract.StopReason) {
	t.Helper()
	if r.Stop != want {
		t.Errorf("turntest: stop %q, want %q", r.Stop, want)
	}
}

type wantCall struct{ id, name, args string }

func wantCalls(t *testing.T, r contract.ModelReplied, want []wantCall) {
	t.Helper()
	got := r.Reply.Calls()
	if len(got) != len(want) {
		t.Fatalf("turntest: %d tool calls, want %d (blocks %s)", len(got), len(want), describe(r.Reply.Blocks))
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || g.Name != w.name || !jsonEqual(g.Arguments, w.args) {
			t.Errorf("turntest: call %d is %s %s %s, want %s %s with arguments equal as JSON to %s", i, g.ID, g.Name, g.Arguments, w.id, w.name, w.args)
		}
	}
}

// wantRetries checks the number of model_retry events: each is a clean
// restart, announced so subscribers drop the partial output.
func wantRetries(t *testing.T, o outcome, want int) {
	t.Helper()
	n := 0
	for _, ev := range o.events {
		if ev.Kind == contract.EvModelRetry {
			n++
		}
	}
	if n != want {
		t.Errorf("turntest: %d model_retry events, want %d", n, want)
	}
}

// wantDeltasReassemble checks that the deltas of the successful attempt
// (after the last model_retry) spell out the reply's text and thinking,
// and that every delta is UTF-8.
func wantDeltasReassemble(t *testing.T, o outcome, r contract.ModelReplied) {
	t.Helper()
	var text, thinking strings.Builder
	for _, ev := range o.events {
		if !utf8.ValidString(ev.Text) {
			t.Errorf("turntest: %s delta %q is not UTF-8: a client reading it on its own gets U+FFFD for the character it splits", ev.Kind, ev.Text)
		}
		switch ev.Kind {
		case contract.EvModelRetry:
			text.Reset()
			thinking.Reset()
		case contract.EvTextDelta:
			text.WriteString(ev.Text)
		case contract.EvThinkingDelta:
			thinking.WriteString(ev.Text)
		}
	}
	var wantThinking strings.Builder
	for _, b := range r.Reply.Blocks {
		if b.Kind == contract.BlockThinking {
			wantThinking.WriteString(b.Text)
		}
	}
	if text.String() != r.Reply.Text() {
		t.Errorf("turntest: text deltas spell %q, reply text is %q", text.String(), r.Reply.Text())
	}
	if thinking.String() != wantThinking.String() {
		t.Errorf("turntest: thinking deltas spell %q, reply thinking is %q", thinking.String(), wantThinking.String())
	}
}

func jsonEqual(a, b string) bool {
	var x, y any
	if json.Unmarshal([]byte(a), &x) != nil || json.Unmarshal([]byte(b), &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func describe(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}
