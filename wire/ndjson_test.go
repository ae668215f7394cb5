package wire

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	wt "github.com/batonrt/baton/wire/internal/wiretest"
)

func TestGoldenNDJSON(t *testing.T) {
	var buf bytes.Buffer
	w := &ndjsonWriter{w: &buf}
	for _, e := range wt.LiveRun() {
		if err := w.writeEvent(e); err != nil {
			t.Fatal(err)
		}
	}
	wt.Golden(t, "baton.ndjson", buf.Bytes())
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errors.New("gone") }

func TestNDJSONReportsWriteErrors(t *testing.T) {
	w := &ndjsonWriter{w: failingWriter{}}
	if err := w.writeEvent(wt.Ev(1, 0, "run_started")); err == nil || !strings.Contains(err.Error(), "wire: write ndjson") {
		t.Errorf("got %v, want a wire: write ndjson error", err)
	}
}
