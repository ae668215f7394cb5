package contract_test

import (
	"encoding/json"
	"fmt"
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
