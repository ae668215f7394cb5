package tracing

import (
	"testing"

	"github.com/batonrt/baton/contract"
)

func TestFaultText(t *testing.T) {
	tests := []struct {
		name    string
		err     *contract.RunError
		content bool
		want    string
	}{
		{"one call", &contract.RunError{Kind: contract.KindLoop, Message: `loop guard: the call echo {"text":"a repeated b"} repeated 3 times`}, false,
			"baton: loop: loop guard: the call echo … repeated 3 times"},
		{"alternating", &contract.RunError{Kind: contract.KindLoop, Message: `loop guard: the call read {"p":"x"} and the call write {"p":"y"} alternating repeated 4 times`}, false,
			"baton: loop: loop guard: the call read … alternating repeated 4 times"},
		{"content recorded", &contract.RunError{Kind: contract.KindLoop, Message: `loop guard: the call echo {"text":"a"} repeated 3 times`}, true,
			`baton: loop: loop guard: the call echo {"text":"a"} repeated 3 times`},
		{"no progress quotes nothing", &contract.RunError{Kind: contract.KindLoop, Message: "no_progress: the last 4 rounds of tool calls brought no new result"}, false,
			"baton: loop: no_progress: the last 4 rounds of tool calls brought no new result"},
		{"output verdict", &contract.RunError{Kind: contract.KindOutput, Message: `final answer does not match the output schema "login": validating root: validating /properties/pin: pattern: "4321" does not match regular expression "^[a-z]+$"`}, false,
			`baton: output: final answer does not match the output schema "login": …`},
		{"output not JSON", &contract.RunError{Kind: contract.KindOutput, Message: `final answer does not match the output schema "login": the answer is not JSON (invalid character 'P' looking for beginning of value)`}, false,
			`baton: output: final answer does not match the output schema "login": …`},
		{"output verdict recorded", &contract.RunError{Kind: contract.KindOutput, Message: `final answer does not match the output schema "login": enum: 7 does not equal any of: [1 2]`}, true,
			`baton: output: final answer does not match the output schema "login": enum: 7 does not equal any of: [1 2]`},
		{"other kinds as they are", &contract.RunError{Kind: contract.KindMaxTurns, Message: "reached the cap of 3 model calls"}, false,
			"baton: max_turns: reached the cap of 3 model calls"},
	}
	for _, tt := range tests {
		if got := faultText(tt.err, tt.content); got != tt.want {
			t.Errorf("%s: faultText = %q, want %q", tt.name, got, tt.want)
		}
	}
}
