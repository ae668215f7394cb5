package main

import (
	"testing"

	"go.uber.org/goleak"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// The program's output, so a change that breaks the example fails here.
func Example() {
	main()
	// Output:
	// [calling get_weather {"city":"Paris"}]
	// [get_weather said: sunny, 21°C in Paris]
	// answer: It is sunny and 21°C in Paris.
	// (settled after 2 model calls)
}
