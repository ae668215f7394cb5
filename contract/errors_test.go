package contract_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/batonrt/baton/contract"
)

func TestRunErrorIs(t *testing.T) {
	sentinels := map[contract.ErrorKind]error{
		contract.KindModel: contract.ErrModel, contract.KindTool: contract.ErrTool,
		contract.KindStore: contract.ErrStore, contract.KindAborted: contract.ErrAborted,
		contract.KindMaxTurns: contract.ErrMaxTurns, contract.KindLoop: contract.ErrLoop,
		contract.KindConfig: contract.ErrConfig, contract.KindInternal: contract.ErrInternal,
	}
	kinds := []contract.ErrorKind{contract.KindModel, contract.KindTool, contract.KindStore, contract.KindAborted,
		contract.KindMaxTurns, contract.KindLoop, contract.KindConfig, contract.KindInternal}
	for _, kind := range kinds {
		err := fmt.Errorf("conductor: run r1: %w", contract.WrapError(kind, io.ErrUnexpectedEOF, "it broke"))
		for _, other := range kinds {
			if got, want := errors.Is(err, sentinels[other]), kind == other; got != want {
				t.Errorf("errors.Is(%s error, Err%s) = %v, want %v", kind, other, got, want)
			}
		}
		if !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%s error does not unwrap to its cause", kind)
		}
		re, ok := contract.AsRunError(err)
		if !ok || re.Kind != kind || re.Message != "it broke" {
			t.Errorf("AsRunError(%v) = %+v, %v", err, re, ok)
		}
		var target *contract.RunError
		if !errors.As(err, &target) || target != re {
			t.Errorf("errors.As found %v, want %v", target, re)
		}
	}
	// A RunError with a message is not a sentinel: it matches only itself.
	a, b := contract.NewError(contract.KindTool, "a"), contract.NewError(contract.KindTool, "b")
	if errors.Is(a, b) {
		t.Error("two different tool errors match each other")
	}
	if errors.Is(a, io.EOF) {
		t.Error("RunError matches a foreign error")
	}
	if _, ok := contract.AsRunError(io.EOF); ok {
		t.Error("AsRunError found a RunError in io.EOF")
	}
}

func TestRunErrorMessage(t *testing.T) {
	cases := []struct {
		err  *contract.RunError
		want string
	}{
		{contract.ErrLoop, "baton: loop"},
		{contract.NewError(contract.KindMaxTurns, "reached the cap of %d model calls", 3), "baton: max_turns: reached the cap of 3 model calls"},
		{contract.WrapError(contract.KindStore, io.EOF, "read head"), "baton: store: read head: EOF"},
		{&contract.RunError{Kind: contract.KindConfig, Message: "bad", Fields: []contract.FieldError{{"A", "is x"}, {"B", "is y"}}}, "baton: config: bad: A is x; B is y"},
	}
	for _, tc := range cases {
		if got := tc.err.Error(); got != tc.want {
			t.Errorf("Error() = %q, want %q", got, tc.want)
		}
	}
}

func ExampleAsRunError() {
	err := fmt.Errorf("agent: %w", contract.NewError(contract.KindMaxTurns, "reached the cap"))
	fmt.Println(errors.Is(err, contract.ErrMaxTurns), errors.Is(err, contract.ErrLoop))
	if re, ok := contract.AsRunError(err); ok {
		fmt.Println(re.Kind)
	}
	// Output:
	// true false
	// max_turns
}
