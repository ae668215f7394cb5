package turn_test

import (
	"context"
	"iter"
	"sync"
	"testing"
	"time"

	"go.uber.org/goleak"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func TestMain(m *testing.M) { goleak.VerifyTestMain(m) }

// play is one scripted attempt of the fake provider: its chunks, then err,
// then (if hang) nothing until ctx is done.
type play struct {
	chunks []turn.Chunk
	err    error
	hang   bool
}

// fake plays attempts in order, repeating the last, and records requests.
type fake struct {
	mu    sync.Mutex
	plays []play
	reqs  []contract.ModelRequest
}

func newFake(plays ...play) *fake { return &fake{plays: plays} }

func (f *fake) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	f.mu.Lock()
	p := f.plays[min(len(f.reqs), len(f.plays)-1)]
	f.reqs = append(f.reqs, req)
	f.mu.Unlock()
	return func(yield func(turn.Chunk, error) bool) {
		for _, c := range p.chunks {
			if ctx.Err() != nil {
				yield(turn.Chunk{}, ctx.Err())
				return
			}
			if !yield(c, nil) {
				return
			}
		}
		if p.err != nil {
			yield(turn.Chunk{}, p.err)
			return
		}
		if p.hang {
			<-ctx.Done()
			yield(turn.Chunk{}, ctx.Err())
		}
	}
}

func (f *fake) calls() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return len(f.reqs)
}

func text(s string) turn.Chunk { return turn.Chunk{Kind: turn.ChunkText, Text: s} }

func stop(r contract.StopReason) turn.Chunk { return turn.Chunk{Kind: turn.ChunkStop, Stop: r} }

func callStart(i int, id, name string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkToolCallStart, Index: i, CallID: id, Name: name}
}

func callArgs(i int, s string) turn.Chunk {
	return turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: i, Text: s}
}

func callEnd(i int) turn.Chunk { return turn.Chunk{Kind: turn.ChunkToolCallEnd, Index: i} }

// recorder collects published events and the driver's sleeps.
type recorder struct {
	mu     sync.Mutex
	events []contract.RunEvent
	sleeps []time.Duration
}

func (r *recorder) publish(ev *contract.RunEvent) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.events = append(r.events, *ev)
}

func (r *recorder) sleep(ctx context.Context, d time.Duration) error {
	r.mu.Lock()
	r.sleeps = append(r.sleeps, d)
	r.mu.Unlock()
	return ctx.Err()
}

func (r *recorder) kinds() []contract.EventKind {
	var ks []contract.EventKind
	for _, e := range r.events {
		ks = append(ks, e.Kind)
	}
	return ks
}

func clock() contract.Timestamp { return 42 }

// testOptions are quick, deterministic options recording into r.
func testOptions(r *recorder) turn.Options {
	return turn.Options{
		FirstChunkTimeout: 5 * time.Second,
		IdleTimeout:       5 * time.Second,
		TotalTimeout:      20 * time.Second,
		MaxRetries:        2,
		BaseBackoff:       100 * time.Millisecond,
		MaxBackoff:        time.Second,
		Now:               clock,
		Sleep:             r.sleep,
		Rand:              func() float64 { return 0.5 },
	}
}

var weatherReq = contract.ModelRequest{
	Model:   "m",
	History: contract.HistoryOf(contract.UserText("weather?")),
	Tools:   []contract.ToolDescriptor{{Name: "get_weather"}, {Name: "search"}},
	Turn:    1,
}

// replyOf drives one attempt playing chunks and returns its reply, with
// the events it published.
func replyOf(t *testing.T, chunks []turn.Chunk) (contract.ModelReplied, *recorder) {
	t.Helper()
	r := &recorder{}
	sig := turn.NewDriver(newFake(play{chunks: chunks}), testOptions(r)).Run(context.Background(), weatherReq, r.publish)
	reply, ok := sig.(contract.ModelReplied)
	if !ok {
		t.Fatalf("got %#v, want a reply", sig)
	}
	return reply, r
}
