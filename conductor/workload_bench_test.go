package conductor_test

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"os"
	"runtime"
	"testing"
	"time"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

// workload is one shape of the side-by-side workload: T model turns, the
// first T-1 with k calls of an echo tool each, the last saying "done".
type workload struct {
	name         string
	turns, calls int
}

var workloads = []workload{{"S1", 10, 1}, {"S2", 50, 4}, {"S3", 400, 1}}

// workloadModel is a zero-latency model written against turn.Provider:
// it walks the history it is handed to find which turn it is at, then
// answers in one chunk per call (its whole arguments) or with "done".
// Ids and arguments are made once, so the model allocates as little as a
// real stream decoder would; a short run's model keeps no state of its
// own, so one model serves every run at once, as a model served over
// the network holds nothing in the caller's process.
type workloadModel struct {
	w    workload
	ids  [][]string
	args [][]string
	// stamps[i] is when model call i began answering in the current run,
	// in a long run only (nil in a short one): S3's first and last 100
	// turns are timed from them.
	stamps []time.Time
	first  time.Duration
	last   time.Duration
	// walks times the model's walks of the history in a long run (nil
	// in a short one, which the footprint benchmarks hold 1,000 of).
	walks *walkTimes
}

// walkTimes times a model's walks of the history: they grow with it in
// the bare loop too, so they are told apart from what the runtime adds.
type walkTimes struct {
	// began[i] is when model call i began its walk.
	began []time.Time
	// first and last are the walks' share of the model's first and last.
	first, last time.Duration
}

func newWorkloadModel(w workload) *workloadModel {
	m := &workloadModel{w: w, ids: make([][]string, w.turns), args: make([][]string, w.turns)}
	if m.long() {
		m.stamps = make([]time.Time, w.turns)
		m.walks = &walkTimes{began: make([]time.Time, w.turns)}
	}
	for i := range w.turns {
		for j := range w.calls {
			m.ids[i] = append(m.ids[i], fmt.Sprintf("c%d_%d", i, j))
			m.args[i] = append(m.args[i], fmt.Sprintf(`{"text":"turn %d call %d"}`, i, j))
		}
	}
	return m
}

// long reports whether runs are long enough to compare their first and
// last 100 turns.
func (m *workloadModel) long() bool { return m.w.turns >= 300 }

// walkStarted returns when a walk of the history starts, in long runs
// only: short ones take no clock reading for it.
func (m *workloadModel) walkStarted() time.Time {
	if !m.long() {
		return time.Time{}
	}
	return time.Now()
}

// answer yields the chunks of the reply after `replied` assistant turns,
// ending with the stop reason; walk is when the walk that counted them
// started.
func (m *workloadModel) answer(replied int, walk time.Time, yield func(turn.Chunk, error) bool) {
	if m.long() {
		m.stamps[replied] = time.Now()
		m.walks.began[replied] = walk
	}
	if replied >= m.w.turns-1 {
		if m.long() {
			m.first += m.stamps[100].Sub(m.stamps[0])
			m.last += m.stamps[replied].Sub(m.stamps[replied-100])
			// The interval from call i to call i+100 holds the walks of
			// calls i+1 to i+100.
			for j := 1; j <= 100; j++ {
				m.walks.first += m.stamps[j].Sub(m.walks.began[j])
				m.walks.last += m.stamps[replied-100+j].Sub(m.walks.began[replied-100+j])
			}
		}
		if yield(turn.Chunk{Kind: turn.ChunkText, Text: "done"}, nil) {
			yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn}, nil)
		}
		return
	}
	for j := range m.w.calls {
		if !yield(turn.Chunk{Kind: turn.ChunkToolCallStart, Index: j, CallID: m.ids[replied][j], Name: "echo"}, nil) {
			return
		}
		if !yield(turn.Chunk{Kind: turn.ChunkToolCallArgs, Index: j, Text: m.args[replied][j]}, nil) {
			return
		}
	}
	yield(turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopToolUse}, nil)
}

func (m *workloadModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	history := req.History
	return func(yield func(turn.Chunk, error) bool) {
		walk := m.walkStarted()
		replied := repliesIn(history)
		m.answer(replied, walk, yield)
	}
}

// repliesIn is the model's walk of the history it is handed: it counts
// the assistant turns to find which turn it is at.
func repliesIn(history contract.History) int {
	replied := 0
	for _, t := range history.All() {
		if t.Role == contract.RoleAssistant {
			replied++
		}
	}
	return replied
}

// reportPerTurn reports time and allocations per model turn over all b.N
// runs; before is the allocation count taken when the loop started. For
// a long run it also reports the last 100 turns' time over the first
// 100's, which stays near 1 when a turn's cost does not grow with
// history, and the difference of the two in microseconds a turn.
func reportPerTurn(b *testing.B, m *workloadModel, before uint64) {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	n := float64(b.N * m.w.turns)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/turn")
	b.ReportMetric(float64(ms.Mallocs-before)/n, "allocs/turn")
	if m.first > 0 {
		b.ReportMetric(float64(m.last)/float64(m.first), "last100/first100")
		// The same growth in time: how much longer a turn of the last 100
		// took than one of the first, which the bare loop's figure, its
		// model's walk of the longer history, can be taken from.
		b.ReportMetric(float64(m.last-m.first)/float64(b.N)/100/1e3, "growth-us/turn")
		// The model's walk of the history, which grows the same way in
		// the bare loop, and the ratio without it: what the runtime
		// itself adds to a late turn.
		walks := m.walks
		b.ReportMetric(float64(walks.last-walks.first)/float64(b.N)/100/1e3, "walk-growth-us/turn")
		b.ReportMetric(float64(m.last-walks.last)/float64(m.first-walks.first), "less-walk-last100/first100")
	}
}

func mallocs() uint64 {
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.Mallocs
}

// BenchmarkWorkload runs the workload through the public API on the
// defaults: each run a fresh agent and session, the memory store, hashing
// and events on, a typed echo tool.
func BenchmarkWorkload(b *testing.B) {
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			model := newWorkloadModel(w)
			box := toolBox(b, echoTool(b))
			cfg := contract.AgentConfig{Model: "workload", MaxTurns: w.turns}
			before := mallocs()
			for b.Loop() {
				a, err := conductor.CreateAgent(cfg, conductor.Deps{Model: conductor.Model{Provider: model}, Tools: conductor.Tools{Box: box}})
				if err != nil {
					b.Fatal(err)
				}
				snap, err := a.Submit(context.Background(), conductor.Text("go"))
				if err != nil || snap.Turns != w.turns {
					b.Fatalf("err %v, turns %d", err, snap.Turns)
				}
				if err := a.Close(); err != nil {
					b.Fatal(err)
				}
			}
			reportPerTurn(b, model, before)
		})
	}
}

// BenchmarkWorkloadBare is the same work as a plain loop: a history
// slice, the same model walking it, a map lookup of the tool and
// encoding/json decoding of its arguments. It is the floor the runtime's
// figures are read against.
func BenchmarkWorkloadBare(b *testing.B) {
	type echoArgs struct {
		Text string `json:"text"`
	}
	tools := map[string]func(json.RawMessage) (string, error){
		"echo": func(raw json.RawMessage) (string, error) {
			var in echoArgs
			err := json.Unmarshal(raw, &in)
			return in.Text, err
		},
	}
	for _, w := range workloads {
		b.Run(w.name, func(b *testing.B) {
			model := newWorkloadModel(w)
			before := mallocs()
			for b.Loop() {
				history := []contract.Turn{contract.UserText("go")}
				for {
					walk := model.walkStarted()
					replied := 0
					for _, t := range history {
						if t.Role == contract.RoleAssistant {
							replied++
						}
					}
					reply := contract.Turn{Role: contract.RoleAssistant}
					model.answer(replied, walk, func(c turn.Chunk, _ error) bool {
						switch c.Kind {
						case turn.ChunkText:
							reply.Blocks = append(reply.Blocks, contract.TextBlock(c.Text))
						case turn.ChunkToolCallStart:
							reply.Blocks = append(reply.Blocks, contract.CallBlock(contract.ToolCall{ID: c.CallID, Name: c.Name}))
						case turn.ChunkToolCallArgs:
							reply.Blocks[len(reply.Blocks)-1].Call.Arguments += c.Text
						}
						return true
					})
					history = append(history, reply)
					calls := reply.Calls()
					if len(calls) == 0 {
						break
					}
					results := contract.Turn{Role: contract.RoleTool}
					for _, call := range calls {
						out, err := tools[call.Name](json.RawMessage(call.Arguments))
						if err != nil {
							b.Fatal(err)
						}
						results.Blocks = append(results.Blocks, contract.ResultBlock(contract.ToolResult{CallID: call.ID, Name: call.Name, Content: out}))
					}
					history = append(history, results)
				}
				if got := len(history); got != 2*w.turns {
					b.Fatalf("history of %d turns, want %d", got, 2*w.turns)
				}
			}
			reportPerTurn(b, model, before)
		})
	}
}

// slowModel answers like workloadModel after waiting, as a real model
// would, so that every run is in flight at once. Its stream keeps only
// the history of the request, which is all it reads.
type slowModel struct {
	*workloadModel
	wait time.Duration
}

func (m slowModel) Stream(ctx context.Context, req contract.ModelRequest) iter.Seq2[turn.Chunk, error] {
	history := req.History
	return func(yield func(turn.Chunk, error) bool) {
		select {
		case <-time.After(m.wait):
		case <-ctx.Done():
			yield(turn.Chunk{}, ctx.Err())
			return
		}
		m.answer(repliesIn(history), time.Time{}, yield)
	}
}

// BenchmarkConcurrentRuns starts 1,000 runs of S1 at once, each its own
// agent on the defaults, with every model call waiting 20 ms, and reports
// the wall time and how far the process's resident memory grew above
// what it was before. Run it alone (-bench ConcurrentRuns -benchtime 1x):
// memory that earlier benchmarks left mapped would hide the growth.
func BenchmarkConcurrentRuns(b *testing.B) {
	const runs = 1000
	w := workload{"S1", 10, 1}
	box := toolBox(b, echoTool(b))
	cfg := contract.AgentConfig{Model: "workload", MaxTurns: w.turns}
	model := slowModel{newWorkloadModel(w), 20 * time.Millisecond}
	var growth, wall float64
	for b.Loop() {
		runtime.GC()
		base, ok := residentBytes()
		if !ok {
			b.Skip("resident memory is read from /proc/self/statm (Linux only)")
		}
		peak := make(chan uint64)
		stop := make(chan struct{})
		go func() {
			var hi uint64
			tick := time.NewTicker(2 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case <-tick.C:
					if r, _ := residentBytes(); r > hi {
						hi = r
					}
				case <-stop:
					peak <- hi
					return
				}
			}
		}()
		start := time.Now()
		errs := make(chan error, runs)
		for range runs {
			go func() {
				errs <- runOnce(&cfg, box, model, w.turns)
			}()
		}
		for range runs {
			if err := <-errs; err != nil {
				b.Fatal(err)
			}
		}
		wall += float64(time.Since(start).Milliseconds())
		close(stop)
		if hi := <-peak; hi > base {
			growth += float64(hi-base) / (1 << 20)
		}
	}
	b.ReportMetric(wall/float64(b.N), "ms-wall")
	b.ReportMetric(growth/float64(b.N), "MiB-RSS-growth")
}

// residentBytes reads the process's resident set size.
func residentBytes() (uint64, bool) {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0, false
	}
	var size, resident uint64
	if _, err := fmt.Sscan(string(b), &size, &resident); err != nil {
		return 0, false
	}
	return resident * uint64(os.Getpagesize()), true
}
