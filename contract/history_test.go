package contract_test

import (
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"pgregory.net/rapid"
)

func turnN(i int) contract.Turn {
	t := contract.UserText(fmt.Sprintf("turn %d", i))
	t.Tokens = i + 1
	return t
}

func TestHistoryAppendShares(t *testing.T) {
	base := contract.HistoryOf(turnN(0), turnN(1))
	a := base.Append(turnN(2))
	b := base.Append(turnN(3))
	if base.Len() != 2 || a.Len() != 3 || b.Len() != 3 {
		t.Fatalf("lengths %d %d %d, want 2 3 3", base.Len(), a.Len(), b.Len())
	}
	if diff := cmp.Diff([]contract.Turn{turnN(0), turnN(1)}, base.Turns()); diff != "" {
		t.Errorf("appending changed the base (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff([]contract.Turn{turnN(0), turnN(1), turnN(3)}, b.Turns()); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if got, want := a.Tokens(), 1+2+3; got != want {
		t.Errorf("Tokens() = %d, want %d", got, want)
	}
	if last, ok := a.Last(); !ok || last.Text() != "turn 2" {
		t.Errorf("Last() = %v, %v", last, ok)
	}
	var empty contract.History
	if _, ok := empty.Last(); ok || empty.Len() != 0 || empty.Tokens() != 0 || len(empty.Turns()) != 0 {
		t.Error("the zero History is not empty")
	}
	if !a.Equal(base.Append(turnN(2))) {
		t.Error("separately built equal histories are not Equal")
	}
	if a.Equal(b) || a.Equal(base) {
		t.Error("different histories are Equal")
	}
}

func TestHistoryTail(t *testing.T) {
	h := contract.HistoryOf(turnN(0), turnN(1), turnN(2))
	for _, tc := range []struct {
		n    int
		want []contract.Turn
	}{
		{0, []contract.Turn{}},
		{-1, []contract.Turn{}},
		{1, []contract.Turn{turnN(2)}},
		{2, []contract.Turn{turnN(1), turnN(2)}},
		{9, []contract.Turn{turnN(0), turnN(1), turnN(2)}},
	} {
		if diff := cmp.Diff(tc.want, h.Tail(tc.n)); diff != "" {
			t.Errorf("Tail(%d) mismatch (-want +got):\n%s", tc.n, diff)
		}
	}
	var idx []int
	for i, turn := range h.All() {
		idx = append(idx, i)
		if turn.Text() != fmt.Sprintf("turn %d", i) {
			t.Errorf("All yields %q at %d", turn.Text(), i)
		}
		if i == 1 {
			break
		}
	}
	if diff := cmp.Diff([]int{0, 1}, idx); diff != "" {
		t.Errorf("All with break mismatch (-want +got):\n%s", diff)
	}
}

func TestHistoryJSON(t *testing.T) {
	var empty contract.History
	b, err := json.Marshal(empty)
	if err != nil || string(b) != "[]" {
		t.Fatalf("empty history encodes as %s, %v", b, err)
	}
	if err := json.Unmarshal([]byte(`{"x":1}`), &empty); err == nil {
		t.Error("decoding an object into History: no error")
	}
	rapid.Check(t, func(t *rapid.T) {
		n := rapid.IntRange(0, 20).Draw(t, "n")
		var h contract.History
		for i := range n {
			turn := contract.UserText(rapid.String().Draw(t, "text"))
			turn.Tokens = rapid.IntRange(0, 100).Draw(t, "tokens")
			h = h.Append(turn)
			if h.Len() != i+1 {
				t.Fatalf("Len %d after %d appends", h.Len(), i+1)
			}
		}
		b, err := json.Marshal(h)
		if err != nil {
			t.Fatal(err)
		}
		var back contract.History
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(h, back); diff != "" {
			t.Fatalf("mismatch (-want +got):\n%s", diff)
		}
		if back.Tokens() != h.Tokens() {
			t.Fatalf("Tokens %d after round trip, want %d", back.Tokens(), h.Tokens())
		}
	})
}

func ExampleHistory_Append() {
	base := contract.HistoryOf(contract.UserText("hi"))
	longer := base.Append(contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.TextBlock("hello")}})
	fmt.Println(base.Len(), longer.Len())
	for i, t := range longer.All() {
		fmt.Println(i, t.Role, t.Text())
	}
	// Output:
	// 1 2
	// 0 user hi
	// 1 assistant hello
}

// All walks a history longer than its stack buffer in order, every turn
// once, and stops when told.
func TestHistoryAllLong(t *testing.T) {
	for _, n := range []int{31, 32, 33, 100} {
		h := contract.HistoryOf()
		for i := range n {
			h = h.Append(turnN(i))
		}
		count := 0
		for i, turn := range h.All() {
			if i != count || turn.Text() != fmt.Sprintf("turn %d", i) {
				t.Fatalf("n=%d: All yields %q at %d, want turn %d", n, turn.Text(), i, count)
			}
			count++
		}
		if count != n {
			t.Errorf("n=%d: All yielded %d turns", n, count)
		}
		for i := range h.All() {
			if i == n/2 {
				break
			}
		}
	}
}

// Walking a long history, as a model does on every call, allocates
// nothing: its chunks are few enough to be gathered on the stack.
func TestHistoryAllLongAllocatesNothing(t *testing.T) {
	var h contract.History
	for range 2000 {
		h = h.Append(contract.UserText("x"))
	}
	allocs := testing.AllocsPerRun(10, func() {
		for _, turn := range h.All() {
			if turn.Role != contract.RoleUser {
				t.Fatalf("turn of role %q", turn.Role)
			}
		}
	})
	if allocs != 0 {
		t.Errorf("walking 2,000 turns made %v allocations, want 0", allocs)
	}
}

func BenchmarkHistoryAll(b *testing.B) {
	var h contract.History
	for range 400 {
		h = h.Append(contract.UserText("x"))
	}
	b.ReportAllocs()
	for b.Loop() {
		n := 0
		for range h.All() {
			n++
		}
		if n != 400 {
			b.Fatalf("%d turns", n)
		}
	}
}

// Histories branched from any earlier version, in any order, each read
// back as the list of turns it was built from: branches never see each
// other's turns, whichever takes a shared chunk's next slot first.
func TestHistoryBranchesAgreeWithSlices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		type version struct {
			h     contract.History
			turns []contract.Turn
			from  int // the version it was appended to, -1 for the first
		}
		versions := []version{{from: -1}}
		for i := range rapid.IntRange(1, 100).Draw(t, "appends") {
			from := len(versions) - 1
			if rapid.IntRange(0, 4).Draw(t, "branch") == 0 {
				from = rapid.IntRange(0, len(versions)-1).Draw(t, "from")
			}
			v := versions[from]
			turn := turnN(i)
			versions = append(versions, version{h: v.h.Append(turn), turns: append(append([]contract.Turn(nil), v.turns...), turn), from: from})
		}
		for k, v := range versions {
			if got := v.h.Turns(); !sameTurns(v.turns, got) {
				t.Fatalf("version %d: Turns (-want +got):\n%s", k, cmp.Diff(v.turns, got))
			}
			var all, backward []contract.Turn
			for i, turn := range v.h.All() {
				if i != len(all) {
					t.Fatalf("version %d: All yields index %d at %d", k, i, len(all))
				}
				all = append(all, turn)
			}
			for i, turn := range v.h.Backward() {
				if i != len(v.turns)-1-len(backward) {
					t.Fatalf("version %d: Backward yields index %d", k, i)
				}
				backward = append([]contract.Turn{turn}, backward...)
			}
			if !sameTurns(v.turns, all) {
				t.Fatalf("version %d: All (-want +got):\n%s", k, cmp.Diff(v.turns, all))
			}
			if !sameTurns(v.turns, backward) {
				t.Fatalf("version %d: Backward (-want +got):\n%s", k, cmp.Diff(v.turns, backward))
			}
			tokens, chars := 0, 0
			for _, turn := range v.turns {
				tokens += turn.Tokens
				chars += turn.Chars()
			}
			if v.h.Len() != len(v.turns) || v.h.Tokens() != tokens || v.h.Chars() != chars {
				t.Fatalf("version %d: Len %d Tokens %d Chars %d, want %d %d %d", k, v.h.Len(), v.h.Tokens(), v.h.Chars(), len(v.turns), tokens, chars)
			}
			if v.from >= 0 {
				added, ok := v.h.After(versions[v.from].h)
				if !ok || !sameTurns(added, v.turns[len(v.turns)-1:]) {
					t.Fatalf("version %d: After the version it grew from = %v, %v", k, added, ok)
				}
			}
			other := rapid.IntRange(0, len(versions)-1).Draw(t, "other")
			o := versions[other]
			if got, want := v.h.Equal(o.h), sameTurns(v.turns, o.turns); got != want {
				t.Fatalf("versions %d and %d: Equal = %v, want %v", k, other, got, want)
			}
			_, ok := v.h.After(o.h)
			if ok && (len(o.turns) > len(v.turns) || !sameTurns(o.turns, v.turns[:len(o.turns)])) {
				t.Fatalf("versions %d and %d: After says %d grew from %d", k, other, k, other)
			}
			if grew := v.h.GrewFrom(o.h); grew != ok {
				t.Fatalf("versions %d and %d: GrewFrom %v, After's ok %v", k, other, grew, ok)
			}
		}
	})
}

// sameTurns compares turns made by turnN: by text and tokens, which is
// all they hold and much cheaper than cmp for the many histories a
// property builds.
func sameTurns(a, b []contract.Turn) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].Text() != b[i].Text() || a[i].Tokens != b[i].Tokens || a[i].Role != b[i].Role {
			return false
		}
	}
	return true
}

// Appends to one history from many goroutines at once each get a history
// of their own turn.
func TestHistoryConcurrentAppends(t *testing.T) {
	base := contract.HistoryOf(turnN(0), turnN(1), turnN(2))
	const n = 16
	got := make([]contract.History, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i] = base.Append(turnN(10 + i)) })
	}
	wg.Wait()
	for i, h := range got {
		want := []contract.Turn{turnN(0), turnN(1), turnN(2), turnN(10 + i)}
		if diff := cmp.Diff(want, h.Turns()); diff != "" {
			t.Errorf("append %d (-want +got):\n%s", i, diff)
		}
		if _, ok := h.After(base); !ok {
			t.Errorf("append %d: After(base) is false", i)
		}
	}
}
