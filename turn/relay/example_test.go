package relay_test

import (
	"context"
	"fmt"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/turn/httpfail"
	"github.com/batonrt/baton/turn/relay"
)

// lines stands in for an SDK's event stream.
type lines struct {
	items []string
	i     int
}

func (l *lines) Next() bool      { l.i++; return l.i <= len(l.items) }
func (l *lines) Current() string { return l.items[l.i-1] }
func (l *lines) Err() error      { return nil }
func (l *lines) Close() error    { return nil }

// echo decodes each event into a text chunk and stops at the end.
type echo struct{}

func (echo) Decode(s string) []turn.Chunk { return []turn.Chunk{{Kind: turn.ChunkText, Text: s}} }
func (echo) End() ([]turn.Chunk, error) {
	return []turn.Chunk{{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}}, nil
}

func ExampleRun() {
	relay.Run(context.Background(), &lines{items: []string{"Hello", "."}}, nil, echo{}, httpfail.Classifier{API: "demo"},
		func(c turn.Chunk, err error) bool {
			fmt.Println(c.Kind, c.Text+string(c.Stop), err)
			return true
		})
	// Output:
	// text Hello <nil>
	// text . <nil>
	// stop end_turn <nil>
}
