package scripted_test

import (
	"path/filepath"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/turntest"
)

// TestConformance runs the provider suite over the scripts in
// testdata/conformance, one per case. A script names no model that
// answered and no reply id, so the response case is out.
func TestConformance(t *testing.T) {
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		if c == turntest.CaseResponse {
			return nil, false
		}
		s, err := scripted.Load(filepath.Join("testdata", "conformance", string(c)+".json"))
		if err != nil {
			t.Fatal(err)
		}
		return s, true
	})
}

// TestConformanceInGo builds the same cases in Go, for the builders.
func TestConformanceInGo(t *testing.T) {
	hello := scripted.Reply{Text: "Hello, world."}
	paris := scripted.Call{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}
	scripts := map[turntest.Case]func() turn.Provider{
		turntest.CaseText: func() turn.Provider {
			return scripted.New(scripted.Reply{Text: "Hello, world.", Usage: usage(10, 5, 0)})
		},
		turntest.CaseTools: func() turn.Provider { return scripted.New(scripted.Reply{Calls: []scripted.Call{paris}}) },
		turntest.CaseParallelTools: func() turn.Provider {
			return scripted.New(scripted.Reply{Calls: []scripted.Call{paris, {ID: "call_2", Name: "get_weather", Arguments: `{"city":"Tokyo"}`}}})
		},
		turntest.CaseThinking: func() turn.Provider {
			return scripted.New(scripted.Reply{Thinking: "Let me think.", Signature: "sig-1", Text: "Done."})
		},
		turntest.CaseUsage: func() turn.Provider { return scripted.New(scripted.Reply{Text: "Hi.", Usage: usage(100, 20, 30)}) },
		turntest.CaseErrorFrame: func() turn.Provider {
			return scripted.Repeat(scripted.Reply{Text: "Hello", Fail: &scripted.Failure{After: 1, Message: "boom"}}, 0)
		},
		turntest.CaseRateLimited: func() turn.Provider {
			return scripted.New(scripted.Reply{Fail: &scripted.Failure{Status: 429}}, hello)
		},
		turntest.CaseServerErrorThenOK: func() turn.Provider {
			return scripted.New(scripted.Reply{Fail: &scripted.Failure{Status: 500}}, hello)
		},
		turntest.CaseCutMidToolCall: func() turn.Provider {
			return scripted.Repeat(scripted.Reply{Calls: []scripted.Call{paris}, Fail: &scripted.Failure{After: 2, Cut: true}}, turntest.MaxRetries+1)
		},
		turntest.CaseMalformedArguments: func() turn.Provider {
			return scripted.New(scripted.Reply{Calls: []scripted.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Paris"`}}})
		},
		turntest.CaseMaxTokensMidCall: func() turn.Provider {
			return scripted.New(scripted.Reply{Calls: []scripted.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city": "Par`}}, Stop: contract.StopMaxTokens})
		},
		// An in-process script has no connection to break: its stream
		// ends after the stop.
		turntest.CaseCutAfterStop: func() turn.Provider { return scripted.New(hello) },
		turntest.CaseSplitCharacters: func() turn.Provider {
			return scripted.New(scripted.Reply{Text: "Grüße aus 東京.", Calls: []scripted.Call{{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Zürich"}`}}})
		},
		turntest.CaseNeverEnds: func() turn.Provider {
			return scripted.New(scripted.Reply{Text: "Hello", Fail: &scripted.Failure{After: 1, Hang: true}})
		},
	}
	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
		mk, ok := scripts[c]
		if !ok {
			return nil, false
		}
		return mk(), true
	})
}
