package relay_test

import (
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/relay"
)

// A decoder notes what each event says of the reply and passes the
// chunks it decodes through Before, which puts the response chunk ahead
// of the first of them, once.
func ExampleResponse() {
	var r relay.Response
	r.Note("gpt-4o-2024-08-06", "chatcmpl-1") // the first event names the reply and holds nothing else
	for _, out := range [][]turn.Chunk{
		r.Before(nil),
		r.Before([]turn.Chunk{{Kind: turn.ChunkText, Text: "Hi."}}),
		r.Before([]turn.Chunk{{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}),
	} {
		for _, c := range out {
			fmt.Printf("%s %q %q\n", c.Kind, c.Name, c.Text+string(c.Stop))
		}
	}
	// Output:
	// response "gpt-4o-2024-08-06" "chatcmpl-1"
	// text "" "Hi."
	// stop "" "end_turn"
}
