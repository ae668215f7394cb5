package turn_test

import (
	"context"
	"iter"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// silent is a provider that never answers, streaming or not, until the
// call's context ends.
type silent struct{ streams, completes atomic.Int32 }

func (s *silent) Stream(ctx context.Context, _ contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	return func(yield func(turn.Chunk, error) bool) {
		s.streams.Add(1)
		<-ctx.Done()
		yield(turn.Chunk{}, ctx.Err())
	}
}

func (s *silent) Complete(ctx context.Context, _ contract.ModelRequest) ([]turn.Chunk, error) {
	s.completes.Add(1)
	<-ctx.Done()
	return nil, ctx.Err()
}

// TestFallbackOnSilentServer: a server that never answers fails the call
// after the first-chunk timeout of each attempt the retry count allows
// and of one plain call: the fallback without streaming is bounded by the
// same timeout, and made once per call, not once per attempt.
func TestFallbackOnSilentServer(t *testing.T) {
	r := &recorder{}
	opts := testOptions(r)
	opts.FirstChunkTimeout = 30 * time.Millisecond
	opts.MaxRetries = 2
	p := &silent{}
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, r.publish)
	failed, ok := got.(contract.ModelFailed)
	if !ok || failed.Failure != contract.FailTimeout {
		t.Fatalf("got %#v, want a timeout", got)
	}
	if s, c := p.streams.Load(), p.completes.Load(); s != 3 || c != 1 {
		t.Errorf("%d streaming calls and %d plain ones, want 3 and 1", s, c)
	}
	if !strings.Contains(failed.Message, "first chunk") {
		t.Errorf("the failure does not say what timed out: %q", failed.Message)
	}
}
