package turntest

import (
	"context"
	"iter"
	"sync"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// recorder is the provider under test, keeping the chunks of each
// attempt for the rules that read a stream rather than its reply.
type recorder struct {
	p        turn.Provider
	mu       sync.Mutex
	attempts [][]turn.Chunk
}

// completingRecorder is a recorder over a turn.Completer, so the driver
// still finds the fallback it would find without the recorder.
type completingRecorder struct{ *recorder }

// record wraps p, keeping what it offers the driver.
func record(p turn.Provider) interface {
	turn.Provider
	chunks() [][]turn.Chunk
} {
	r := &recorder{p: p}
	if _, ok := p.(turn.Completer); ok {
		return completingRecorder{r}
	}
	return r
}

// begin starts an attempt and returns its number.
func (r *recorder) begin() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts = append(r.attempts, nil)
	return len(r.attempts) - 1
}

func (r *recorder) add(i int, c turn.Chunk) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.attempts[i] = append(r.attempts[i], c)
}

func (r *recorder) chunks() [][]turn.Chunk {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.attempts
}

func (r *recorder) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	seq := r.p.Stream(ctx, req)
	return func(yield func(turn.Chunk, error) bool) {
		i := r.begin()
		seq(func(c turn.Chunk, err error) bool {
			if err == nil {
				r.add(i, c)
			}
			return yield(c, err)
		})
	}
}

func (r completingRecorder) Complete(ctx context.Context, req contract.ModelRequest) ([]turn.Chunk, error) {
	chunks, err := r.p.(turn.Completer).Complete(ctx, req)
	i := r.begin()
	for _, c := range chunks {
		r.add(i, c)
	}
	return chunks, err
}
