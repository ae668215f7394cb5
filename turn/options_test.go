package turn_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn"
)

func TestLoggerSeesRetries(t *testing.T) {
	var buf bytes.Buffer
	r := &recorder{}
	opts := testOptions(r)
	opts.Logger = slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
		if a.Key == slog.TimeKey {
			return slog.Attr{}
		}
		return a
	}}))
	p := newFake(play{err: &turn.ProviderError{Failure: contract.FailServer, Status: 502}}, hello)
	turn.NewDriver(p, opts).Run(context.Background(), weatherReq, nil)
	want := `level=WARN msg="turn: retrying model call" attempt=1 wait=75ms failure=server status=502`
	if !strings.Contains(buf.String(), want) {
		t.Errorf("log %q lacks %q", buf.String(), want)
	}
}

func TestNegativeTimeoutsAreOff(t *testing.T) {
	opts := testOptions(&recorder{})
	opts.FirstChunkTimeout, opts.IdleTimeout, opts.TotalTimeout = -1, -1, -1
	slowFirst := []turn.Chunk{text("late"), stop(contract.StopEndTurn)}
	p := newFake(play{chunks: slowFirst})
	got := turn.NewDriver(p, opts).Run(context.Background(), weatherReq, nil)
	if r, ok := got.(contract.ModelReplied); !ok || r.Reply.Text() != "late" {
		t.Fatalf("got %#v", got)
	}
	// With every timeout off, only the caller's context ends a hang.
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	got = turn.NewDriver(newFake(play{hang: true}), opts).Run(ctx, weatherReq, nil)
	if f, ok := got.(contract.ModelFailed); !ok || f.Message != "cancelled" {
		t.Fatalf("got %#v, want cancelled", got)
	}
}
