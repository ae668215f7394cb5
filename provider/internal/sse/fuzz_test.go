package sse

import (
	"context"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// FuzzReader: however a stream is cut into reads, it holds the same
// events and ends the same way, and no stream panics the reader.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{
		"data: a\n\n",
		"\ufeffevent: x\r\ndata: a\r\n\r\n",
		"data: a\rdata: b\r\r: c\n\n",
		"error: x\n\nid: 1\nretry\ndata\n\n",
		"data: a\r",
		"\xef\xbb",
	} {
		f.Add(seed, 3)
	}
	f.Fuzz(func(t *testing.T, stream string, cut int) {
		whole, wholeErr := collect(context.Background(), NewReader(&chunks{parts: []string{stream}}, 64))
		var parts []string
		if cut <= 0 {
			parts = bytewise(stream)
		} else {
			for s := stream; s != ""; {
				n := min(cut, len(s))
				parts, s = append(parts, s[:n]), s[n:]
			}
		}
		split, splitErr := collect(context.Background(), NewReader(&chunks{parts: parts}, 64))
		if diff := cmp.Diff(whole, split); diff != "" {
			t.Errorf("events mismatch (-whole +split):\n%s", diff)
		}
		if (wholeErr == nil) != (splitErr == nil) {
			t.Errorf("whole stream ended with %v, split with %v", wholeErr, splitErr)
		}
	})
}
