package storetest_test

import (
	"fmt"

	"github.com/batonrt/baton/store/storetest"
)

// Run is called from a test as storetest.Run(t, func(t *testing.T)
// store.Store { return myStore(t) }); Script builds its records.
func ExampleScript() {
	for _, r := range storetest.Script("run-1", 4) {
		fmt.Println(r.Step, r.Signal.SignalKind())
	}
	// Output:
	// 1 submitted
	// 2 model_replied
	// 3 tool_started
	// 4 tool_settled
}
