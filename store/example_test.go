package store_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
	"github.com/batonrt/baton/store/vfs"
)

func ExampleNewMemory() {
	ctx := context.Background()
	st := store.NewMemory()
	recs := storetest.Script("run-1", 4)
	if _, err := st.Append(ctx, "chat", recs...); err != nil {
		panic(err)
	}
	got, _ := st.Records(ctx, "chat")
	for _, r := range got {
		fmt.Println(r.Step, r.Signal.SignalKind())
	}
	_, err := st.Head(ctx, "nobody")
	fmt.Println(errors.Is(err, store.ErrNotFound))
	// Output:
	// 1 submitted
	// 2 model_replied
	// 3 tool_started
	// 4 tool_settled
	// true
}

func ExampleOpen() {
	ctx := context.Background()
	dir, _ := os.MkdirTemp("", "baton-store")
	defer os.RemoveAll(dir)
	st, err := store.Open(dir)
	if err != nil {
		panic(err)
	}
	release, _ := st.Lock(ctx, "chat")
	defer release()
	_, err = st.Lock(ctx, "chat")
	fmt.Println(errors.Is(err, store.ErrLocked))
	head, _ := st.Append(ctx, "chat", storetest.Script("run-1", 2)...)
	fmt.Println(st.Verify(ctx) == nil, len(head.String()))
	// Output:
	// true
	// true 64
}

func ExampleOpenFS() {
	ctx := context.Background()
	fs := vfs.NewMem()
	st, _ := store.OpenFS(fs)
	_, _ = st.Append(ctx, "chat", storetest.Script("run-1", 3)...)
	fs.CrashAfter(1) // the next write fails, and everything after it
	_, err := st.Append(ctx, "chat", storetest.Script("run-1", 4)[3])
	fmt.Println(errors.Is(err, store.ErrIO))
	fs.Restart(vfs.KeepNone) // power loss: unsynced data is gone
	st, _ = store.OpenFS(fs)
	recs, _ := st.Records(ctx, "chat")
	fmt.Println(len(recs), st.Verify(ctx) == nil)
	// Output:
	// true
	// 3 true
}

func ExampleStore_Fork() {
	ctx := context.Background()
	st := store.NewMemory()
	recs := storetest.Script("run-1", 4)
	second, _ := st.Append(ctx, "main", recs[:2]...)
	_, _ = st.Append(ctx, "main", recs[2:]...)
	_ = st.Fork(ctx, "what-if", second)
	got, _ := st.Records(ctx, "what-if")
	fmt.Println(len(got))
	// Output: 2
}

func ExampleStore_Export() {
	ctx := context.Background()
	src := store.NewMemory()
	_, _ = src.Append(ctx, "chat", storetest.Script("run-1", 3)...)
	var buf bytes.Buffer
	_ = src.Export(ctx, &buf)
	dst := store.NewMemory()
	ids, err := dst.Import(ctx, &buf)
	a, _ := src.Head(ctx, "chat")
	b, _ := dst.Head(ctx, "chat")
	fmt.Println(ids, err, a == b)
	// Output: [chat] <nil> true
}

func ExampleParseHash() {
	h := store.HashOf([]byte("hello"))
	back, err := store.ParseHash(h.String())
	fmt.Println(back == h, err)
	_, err = store.ParseHash("xyz")
	fmt.Println(errors.Is(err, store.ErrInvalid))
	// Output:
	// true <nil>
	// true
}

func ExampleResume() {
	ctx := context.Background()
	rules := testRules()
	st := store.NewMemory()
	submit := contract.Submitted{RunID: "r1", Input: []contract.Turn{contract.UserText("hi")}, At: 1}
	_, effects, _ := rules.Step(cadenceInitial("chat"), submit)
	_, _ = st.Append(ctx, "chat", effects[0].(*contract.Persist).Record)
	snap, err := store.Resume(ctx, st, rules, "chat")
	fmt.Println(snap.Phase, snap.Steps, err)
	fmt.Println(store.Replay(ctx, st, rules, "chat"))
	// Output:
	// awaiting_model 1 <nil>
	// <nil>
}
