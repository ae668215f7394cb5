package store_test

import (
	"runtime"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/storetest"
)

// Reads verify every node and keep the small ones decoded, to skip the
// decoding next time. A session of large tool results, read and let go,
// must not stay in memory with them: a host reading many such sessions
// would hold every one it read, after the store was closed too.
func TestReadingLargeNodesKeepsThemNoLonger(t *testing.T) {
	ctx := t.Context()
	const results, size = 12, 4 << 20
	recs := storetest.Script("big", 3*results+1)
	for i := range recs {
		if settled, ok := recs[i].Signal.(contract.ToolSettled); ok {
			settled.Outcome.Content = strings.Repeat(string(rune('a'+i%26)), size)
			recs[i].Signal = settled
		}
	}
	dir := t.TempDir()
	w := must(store.Open(dir))
	if _, err := w.Append(ctx, "s", recs...); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	clear(recs)
	before := heapAfterGC()
	readAll(t, dir, 3*results+1)
	if grown := int64(heapAfterGC()) - int64(before); grown > results*size/4 {
		t.Fatalf("the heap grew by %d MiB after reading %d MiB of records and closing the store", grown>>20, results*size>>20)
	}
}

// readAll reads the session s of the store in dir and closes it,
// keeping nothing it read.
func readAll(t *testing.T, dir string, want int) {
	ctx := t.Context()
	st := must(store.Open(dir))
	defer st.Close()
	got, err := st.Records(ctx, "s")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != want {
		t.Fatalf("read %d records, want %d", len(got), want)
	}
}

func heapAfterGC() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}
