package main

import (
	"context"
	"testing"

	"github.com/batonrt/baton/store"
)

// BenchmarkVerifySession measures baton replay's work on the demo session
// (8 steps): read and verify the chain, fold it, re-encode every node.
func BenchmarkVerifySession(b *testing.B) {
	dir := b.TempDir()
	fixedSession(b, dir, "bench")
	st, err := store.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	rules := replayRules()
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := verifySession(ctx, st, rules, "bench"); err != nil {
			b.Fatal(err)
		}
	}
}
