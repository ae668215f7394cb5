package store_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// Every layer an error passes through adds what it was doing, and the
// package's name is said once, at the start: a message reads
// "store: fork "b": session exists", not "store: fork "b": store:
// session exists". errors.Is still finds what each layer wrapped.
func TestErrorsNameTheStoreOnce(t *testing.T) {
	ctx := context.Background()
	missing := store.HashOf([]byte("missing"))
	tests := []struct {
		name string
		do   func(st store.Store) error
		want string
		is   error
	}{
		{"empty session id", func(st store.Store) error { _, err := st.Append(ctx, "", storetest.Script("x", 1)...); return err },
			"store: session id: invalid input: empty", store.ErrInvalid},
		{"no records", func(st store.Store) error { _, err := st.Append(ctx, "a"); return err },
			`store: append "a": invalid input: no records`, store.ErrInvalid},
		{"head of a missing session", func(st store.Store) error { _, err := st.Head(ctx, "nope"); return err },
			`store: heads ref of "nope": not found`, store.ErrNotFound},
		{"fork onto an existing session", func(st store.Store) error { h, _ := st.Head(ctx, "a"); return st.Fork(ctx, "a", h) },
			`store: fork "a": session exists`, store.ErrExists},
		{"fork at a missing node", func(st store.Store) error { return st.Fork(ctx, "b", missing) },
			`store: fork "b" at ` + missing.String() + ": object " + missing.String() + ": not found", store.ErrNotFound},
		{"missing link", func(st store.Store) error {
			_, err := st.AppendLinked(ctx, "a", storetest.Script("x", 4)[3], missing)
			return err
		}, `store: append "a": link ` + missing.String() + ": missing parent", store.ErrMissingParent},
		{"lock held", func(st store.Store) error {
			if _, err := st.Lock(ctx, "a"); err != nil {
				return err
			}
			_, err := st.Lock(ctx, "a")
			return err
		}, `store: lock "a": session locked`, store.ErrLocked},
		{"replay of a missing session", func(st store.Store) error { return store.Replay(ctx, st, testRules(), "nope") },
			`store: replay: heads ref of "nope": not found`, store.ErrNotFound},
		{"parse hash", func(store.Store) error { _, err := store.ParseHash("xyz"); return err },
			`store: parse hash "xyz": invalid input: 3 bytes, want 64 hex digits`, store.ErrInvalid},
		{"unknown scheme", func(store.Store) error { _, err := store.Open("nope://x"); return err },
			"store: open: invalid input: no backend for nope://", store.ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := store.NewMemory()
			if _, err := st.Append(ctx, "a", storetest.Script("x", 3)...); err != nil {
				t.Fatal(err)
			}
			err := tt.do(st)
			if err == nil {
				t.Fatal("no error")
			}
			if got := err.Error(); !strings.HasPrefix(got, tt.want) {
				t.Errorf("error mismatch (-want +got):\n%s", cmp.Diff(tt.want, got))
			}
			if n := strings.Count(err.Error(), "store: "); n != 1 {
				t.Errorf("%q names the store %d times, want once", err, n)
			}
			if !errors.Is(err, tt.is) {
				t.Errorf("error %v does not wrap %v", err, tt.is)
			}
		})
	}
}
