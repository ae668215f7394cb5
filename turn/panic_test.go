package turn_test

import (
	"context"
	"iter"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// panicky panics in Stream, or, when broken is set, ends the stream
// broken and panics in Complete, the fallback without streaming.
type panicky struct {
	broken bool
	calls  atomic.Int32
}

func (p *panicky) Stream(context.Context, contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		p.calls.Add(1)
		if p.broken {
			yield(turn.Chunk{}, &turn.ProviderError{Failure: contract.FailStream, Message: "cut"})
			return
		}
		panic("stream fell over")
	}
}

func (p *panicky) Complete(context.Context, contract.ModelRequest) ([]turn.Chunk, error) {
	p.calls.Add(1)
	panic("complete fell over")
}

// TestProviderPanicIsAFailedCall: a provider that panics, streaming or
// not, fails the call with the panic's value, once, without a retry.
func TestProviderPanicIsAFailedCall(t *testing.T) {
	for _, tt := range []struct {
		name   string
		broken bool
		want   string
		calls  int32
	}{
		{"stream", false, "turn: provider other: provider panicked: stream fell over", 1},
		{"complete", true, "turn: provider other: provider panicked: complete fell over", 2},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := &panicky{broken: tt.broken}
			got := turn.NewDriver(p, testOptions(&recorder{})).Run(context.Background(), weatherReq, nil)
			want := contract.ModelFailed{Failure: contract.FailOther, Message: tt.want, At: 42}
			if diff := cmp.Diff(contract.Signal(want), got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			if n := p.calls.Load(); n != tt.calls {
				t.Errorf("provider called %d times, want %d", n, tt.calls)
			}
		})
	}
}
