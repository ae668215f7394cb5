package store_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

// outcome is what one operation showed: a hash, records, sessions or
// exported bytes, and the error's kind.
type outcome struct {
	Hash     store.Hash
	Records  []contract.Record
	Sessions []string
	Export   string
	Err      string
}

func errKind(err error) string {
	for _, k := range []error{store.ErrInvalid, store.ErrNotFound} {
		if errors.Is(err, k) {
			return k.Error()
		}
	}
	if err != nil {
		return "other: " + err.Error()
	}
	return ""
}

// Any interleaving of Record, Append and reads over a few sessions shows
// the same through NewMemory, which names Record's nodes only when read,
// as through the same backend under store.New, which names each at once.
func TestRecordNamesLateAsAppendNamesAtOnce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		ctx := context.Background()
		late, now := store.NewMemory(), store.New(store.NewMemoryBackend())
		sessions := []string{"a", "b", "c"}
		scripts := map[string][]contract.Record{}
		for _, s := range sessions {
			scripts[s] = storetest.Script(s, 40)
		}
		// Session c's results run from empty to larger than the pooled
		// buffer a record is encoded in.
		for i, r := range scripts["c"] {
			if settled, ok := r.Signal.(contract.ToolSettled); ok {
				settled.Outcome.Content = strings.Repeat("x", rapid.IntRange(0, 1500).Draw(t, fmt.Sprint("size", i)))
				scripts["c"][i].Signal = settled
			}
		}
		next := map[string]int{}
		do := func(st store.Store, op, s string, step int) outcome {
			var o outcome
			var err error
			switch op {
			case "record":
				err = st.(store.Recorder).Record(ctx, s, scripts[s][step])
			case "append":
				o.Hash, err = st.Append(ctx, s, scripts[s][step])
			case "unencodable":
				// Refused at once by both, though the late store
				// encodes most records only when it names them.
				err = st.(store.Recorder).Record(ctx, s, contract.Record{Step: uint64(step + 1), Signal: unencodable})
			case "head":
				o.Hash, err = st.Head(ctx, s)
			case "records":
				o.Records, err = st.Records(ctx, s)
			case "sessions":
				o.Sessions, err = st.Sessions(ctx)
			case "export":
				var b bytes.Buffer
				err = st.Export(ctx, &b)
				o.Export = b.String()
			}
			o.Err = errKind(err)
			return o
		}
		for i := range rapid.IntRange(1, 60).Draw(t, "ops") {
			op := rapid.SampledFrom([]string{"record", "record", "record", "append", "unencodable", "head", "records", "sessions", "export"}).Draw(t, fmt.Sprint("op", i))
			s := rapid.SampledFrom(sessions).Draw(t, fmt.Sprint("session", i))
			step := next[s]
			if op == "record" || op == "append" {
				// Now and then a step out of sequence, which both refuse.
				if rapid.IntRange(0, 9).Draw(t, fmt.Sprint("skip", i)) == 0 {
					step++
				}
				if step >= len(scripts[s]) {
					continue
				}
			}
			want, got := do(now, op, s, step), do(late, op, s, step)
			if d := cmp.Diff(want, got); d != "" {
				t.Fatalf("%s %s step %d (-named at once +named late):\n%s", op, s, step+1, d)
			}
			if (op == "record" || op == "append") && got.Err == "" {
				next[s]++
			}
		}
		if err := late.Verify(ctx); err != nil {
			t.Fatalf("Verify: %v", err)
		}
	})
}

// unencodable is a signal whose record does not encode: a tool's schema
// that is not JSON.
var unencodable = contract.Submitted{RunID: "r", Tools: []contract.ToolDescriptor{{Name: "t", InputSchema: json.RawMessage("{")}}}

// readUntil starts n goroutines calling read until stop is closed or
// read fails the test; wait for them on what it returns.
func readUntil(t *testing.T, stop <-chan struct{}, n int, read func() error) *sync.WaitGroup {
	var readers sync.WaitGroup
	for range n {
		readers.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if err := read(); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	return &readers
}

// Sessions recorded from many goroutines while others read the store all
// land whole (run with -race).
func TestRecordWhileReading(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	rec := st.(store.Recorder)
	const sessions, steps = 8, 50
	var writers sync.WaitGroup
	stop := make(chan struct{})
	readers := readUntil(t, stop, 2, func() error {
		if _, err := st.Sessions(ctx); err != nil {
			return err
		}
		return st.Export(ctx, &bytes.Buffer{})
	})
	for i := range sessions {
		id := fmt.Sprint("s", i)
		writers.Go(func() {
			for _, r := range storetest.Script(id, steps) {
				if err := rec.Record(ctx, id, r); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	writers.Wait()
	close(stop)
	readers.Wait()
	for i := range sessions {
		id := fmt.Sprint("s", i)
		got, err := st.Records(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if d := cmp.Diff(storetest.Script(id, steps), got); d != "" {
			t.Errorf("records of %s (-want +got):\n%s", id, d)
		}
	}
	if err := st.Verify(ctx); err != nil {
		t.Error(err)
	}
}

// A goroutine that reads its own session after Record sees every record
// it recorded, whoever else is naming meanwhile: eight sessions record
// and read back while four goroutines read the whole store.
func TestRecordThenReadOwnSessionWhileOthersName(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	rec := st.(store.Recorder)
	const sessions, steps = 8, 300
	stop := make(chan struct{})
	var writers sync.WaitGroup
	readers := readUntil(t, stop, 4, func() error {
		_, _ = st.Head(ctx, "s0")
		_, err := st.Sessions(ctx)
		return err
	})
	for i := range sessions {
		id := fmt.Sprint("s", i)
		writers.Go(func() {
			for j, r := range storetest.Script(id, steps) {
				var err error
				if j%17 == 16 {
					_, err = st.Append(ctx, id, r)
				} else {
					err = rec.Record(ctx, id, r)
				}
				if err != nil {
					t.Error(err)
					return
				}
				if j%13 == 12 || j == steps-1 {
					got, err := st.Records(ctx, id)
					if err != nil {
						t.Error(err)
						return
					}
					if len(got) != j+1 {
						t.Errorf("%s read back %d records right after recording %d", id, len(got), j+1)
						return
					}
				}
			}
		})
	}
	writers.Wait()
	close(stop)
	readers.Wait()
}

// A read that fails (here with its context cancelled) while a forked
// session waits to be named leaves nothing unnamed for good: the next
// read names it, and sessions recorded after are named too.
func TestFailedReadLeavesNothingUnnamed(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	rec := st.(store.Recorder)
	a := storetest.Script("a", 4)
	head, err := st.Append(ctx, "a", a[0], a[1])
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "f", head); err != nil {
		t.Fatal(err)
	}
	if err := rec.Record(ctx, "f", a[2]); err != nil {
		t.Fatal(err)
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	_, _ = st.Head(cancelled, "a")
	if got, err := st.Records(ctx, "f"); err != nil || len(got) != 3 {
		t.Fatalf("the fork's records after a cancelled read: %d, %v; want 3", len(got), err)
	}
	if _, err := st.Append(ctx, "f", a[3]); err != nil {
		t.Fatal(err)
	}
	b := storetest.Script("b", 1)[0]
	if err := rec.Record(ctx, "b", b); err != nil {
		t.Fatal(err)
	}
	if got, err := st.Records(ctx, "b"); err != nil || len(got) != 1 {
		t.Fatalf("a session recorded after: %d records, %v; want 1", len(got), err)
	}
}

// A session whose records cannot be named (its forked head damaged)
// fails the reads of that session only: other sessions read and append
// as before, and once Import repairs the node, the waiting records are
// named.
func TestUnnameableSessionFailsItsOwnReadsOnly(t *testing.T) {
	ctx := context.Background()
	st := store.NewMemory()
	rec := st.(store.Recorder)
	a := storetest.Script("a", 3)
	head, err := st.Append(ctx, "a", a[0], a[1])
	if err != nil {
		t.Fatal(err)
	}
	b := storetest.Script("b", 2)
	if _, err := st.Append(ctx, "b", b[0]); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := st.Export(ctx, &export, "a"); err != nil {
		t.Fatal(err)
	}
	if err := st.Fork(ctx, "f", head); err != nil {
		t.Fatal(err)
	}
	if err := rec.Record(ctx, "f", a[2]); err != nil {
		t.Fatal(err)
	}
	store.DamageObject(st, head)
	if _, err := st.Records(ctx, "f"); !errors.Is(err, store.ErrCorrupt) {
		t.Fatalf("Records of the session that cannot be named = %v, want ErrCorrupt", err)
	}
	if got, err := st.Records(ctx, "b"); err != nil || len(got) != 1 {
		t.Fatalf("Records of a healthy session = %d, %v; want 1, nil", len(got), err)
	}
	if _, err := st.Sessions(ctx); err != nil {
		t.Fatalf("Sessions = %v", err)
	}
	if _, err := st.Append(ctx, "b", b[1]); err != nil {
		t.Fatalf("Append to a healthy session = %v", err)
	}
	if _, err := st.Import(ctx, bytes.NewReader(export.Bytes())); err != nil {
		t.Fatalf("Import repairing the damaged node = %v", err)
	}
	if got, err := st.Records(ctx, "f"); err != nil || len(got) != 3 {
		t.Fatalf("Records of the fork after the repair = %d, %v; want 3, nil", len(got), err)
	}
	if err := st.Verify(ctx); err != nil {
		t.Fatalf("Verify after the repair: %v", err)
	}
}

// blockAtEOF hands out r, then holds the reader once at its end until
// released: an Import parked after its scan, before it moves heads.
type blockAtEOF struct {
	r       io.Reader
	reached chan struct{}
	release chan struct{}
	done    bool
}

func (b *blockAtEOF) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF && !b.done {
		b.done = true
		close(b.reached)
		<-b.release
	}
	return n, err
}

// Records taken into a session while an Import that would create it
// scans make it exist: the Import is refused, and the session holds the
// records taken, whole.
func TestRecordDuringImportMakesTheSessionExist(t *testing.T) {
	ctx := context.Background()
	src := store.NewMemory()
	if _, err := src.Append(ctx, "x", storetest.Script("x", 4)...); err != nil {
		t.Fatal(err)
	}
	var export bytes.Buffer
	if err := src.Export(ctx, &export); err != nil {
		t.Fatal(err)
	}
	st := store.NewMemory()
	in := &blockAtEOF{r: bytes.NewReader(export.Bytes()), reached: make(chan struct{}), release: make(chan struct{})}
	imported := make(chan error, 1)
	go func() { _, err := st.Import(ctx, in); imported <- err }()
	<-in.reached
	mine := storetest.Script("mine", 1)
	if err := st.(store.Recorder).Record(ctx, "x", mine[0]); err != nil {
		t.Fatal(err)
	}
	close(in.release)
	if err := <-imported; !errors.Is(err, store.ErrExists) {
		t.Fatalf("Import into a session records were taken into = %v, want ErrExists", err)
	}
	got, err := st.Records(ctx, "x")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(mine, got); d != "" {
		t.Errorf("records of x (-want +got):\n%s", d)
	}
	if err := st.Verify(ctx); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

// Record and Fork racing to create one session: one of them is refused,
// and the store verifies.
func TestRecordRacingForkLeavesOneSession(t *testing.T) {
	ctx := context.Background()
	for i := range 300 {
		st := store.NewMemory()
		head, err := st.Append(ctx, "a", storetest.Script("a", 3)...)
		if err != nil {
			t.Fatal(err)
		}
		forked := make(chan error, 1)
		go func() { forked <- st.Fork(ctx, "x", head) }()
		recErr := st.(store.Recorder).Record(ctx, "x", storetest.Script("x", 1)[0])
		forkErr := <-forked
		if recErr == nil && forkErr == nil {
			t.Fatalf("round %d: Record and Fork both created x", i)
		}
		if err := st.Verify(ctx); err != nil {
			t.Fatalf("round %d: Verify: %v", i, err)
		}
	}
}
