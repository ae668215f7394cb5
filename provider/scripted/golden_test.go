package scripted_test

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/provider/scripted"
	"github.com/batonrt/baton/turn"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// TestExampleGolden plays testdata/example.json through a driver and
// prints every chunk, event and signal with a stable printer.
func TestExampleGolden(t *testing.T) {
	s, err := scripted.Load(filepath.Join("testdata", "example.json"))
	if err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for i := range 3 {
		r := req("What's the weather?")
		r.Tools = []contract.ToolDescriptor{{Name: "get_weather"}}
		fmt.Fprintf(&b, "call %d\n", i+1)
		opts := turn.Options{MaxRetries: turn.NoRetries, Now: func() contract.Timestamp { return 0 }}
		sig := turn.NewDriver(s, opts).Run(context.Background(), r, func(ev *contract.RunEvent) {
			fmt.Fprintf(&b, "  event %s", ev.Kind)
			if ev.Call != nil {
				fmt.Fprintf(&b, " call=%s/%s index=%d", ev.Call.ID, ev.Call.Name, ev.Index)
			}
			fmt.Fprintf(&b, " %q\n", ev.Text)
		})
		enc, err := contract.EncodeSignal(sig)
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "  signal %s\n", enc)
	}
	golden := filepath.Join("testdata", "example.golden")
	if *update {
		if err := os.WriteFile(golden, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (run with -update to create it)", err)
	}
	if diff := cmp.Diff(string(want), b.String()); diff != "" {
		t.Errorf("golden mismatch (-want +got):\n%s", diff)
	}
}

func FuzzParse(f *testing.F) {
	for _, p := range []string{"testdata/example.json", "testdata/conformance/cut_mid_tool_call.json", "testdata/conformance/rate_limited.json"} {
		b, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"replies":[{"fail":{"after":3,"hang":false}}]}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := scripted.Parse(b)
		if err != nil {
			return
		}
		// A valid script plays without panicking; hangs and delays end
		// with the already-cancelled context.
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		for range 2 {
			for range s.Stream(ctx, req("x")) {
			}
		}
	})
}
