package turntest_test

import (
	"fmt"

	"github.com/batonrt/baton/turn/turntest"
)

// A provider's test runs the suite with
//
//	turntest.Run(t, func(t *testing.T, c turntest.Case) (turn.Provider, bool) {
//		srv := httptest.NewServer(replay(t, "testdata/"+string(c)+".sse"))
//		t.Cleanup(srv.Close)
//		return openai.New(endpoint.BaseURL(srv.URL)), true
//	})
//
// and each case sends the request below.
func ExampleRequest() {
	r := turntest.Request(turntest.CaseThinking)
	fmt.Println(r.Model, r.Tools[0].Name, r.Thinking, r.History.Turns()[0].Text())
	// Output: test-model get_weather low What's the weather in Paris?
}

func ExampleOptions() {
	o := turntest.Options(turntest.CaseNeverEnds, nil)
	fmt.Println(o.IdleTimeout, o.MaxRetries)
	// Output: 200ms -1
}
