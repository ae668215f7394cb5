package wire

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/batonrt/baton/conductor"
	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/ledger"
	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/turn"
	"github.com/batonrt/baton/wire/internal/track"
)

// streamingDelegateScript is delegatingScript with replies streamed in
// several text deltas, the child's and the parent's.
func streamingDelegateScript() []func(context.Context) ([]turn.Chunk, error) {
	text := func(parts ...string) func(context.Context) ([]turn.Chunk, error) {
		var chunks []turn.Chunk
		for _, p := range parts {
			chunks = append(chunks, turn.Chunk{Kind: turn.ChunkText, Text: p})
		}
		return reply(append(chunks, turn.Chunk{Kind: turn.ChunkStop, Stop: contract.StopEndTurn})...)
	}
	return []func(context.Context) ([]turn.Chunk, error){
		callsTool("call_d", "delegate_helper", `{"task":"weather in Paris"}`),
		callsTool("call_1", "get_weather", `{"city":"Paris"}`),
		text("18C", ", cloudy", " in Paris", "."),
		text("Paris: ", "18C, ", "cloudy."),
	}
}

// ndjsonLastID is the Last-Event-ID a client that had events resumes
// from, formed as the Handler's doc says: the seq (and delta) of its
// newest event of its own run, and for an event of a delegated run that
// one's, "+", its session percent-encoded, ":" and its seq (and delta).
func ndjsonLastID(events []contract.RunEvent) string {
	own, last := "", ""
	for _, ev := range events {
		id, ok := ndjsonID(ev)
		switch {
		case ok:
			own, last = id, id
		case len(ev.Subflow) > 0 && own != "":
			last = own + "+" + url.QueryEscape(ev.SessionID) + ":" + strconv.FormatUint(ev.Seq, 10)
			if ev.Delta > 0 {
				last += "." + strconv.FormatUint(uint64(ev.Delta), 10)
			}
		}
	}
	return last
}

// deltaText is the text the text deltas of events stream, in order.
func deltaText(events []contract.RunEvent) string {
	var b strings.Builder
	for _, ev := range events {
		if ev.Kind == contract.EvTextDelta {
			b.WriteString(ev.Text)
		}
	}
	return b.String()
}

// sessionLines renders events, with the session and the subflow of each,
// for comparison.
func sessionLines(events []contract.RunEvent) []string {
	var out []string
	for _, ev := range events {
		out = append(out, fmt.Sprintf("%s %v %d.%d %s %q", ev.SessionID, ev.Subflow, ev.Seq, ev.Delta, ev.Kind, ev.Text))
	}
	return out
}

// getNDJSON resumes thread's NDJSON stream from last.
func (e *env) getNDJSON(thread, last string) []contract.RunEvent {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	events, err := e.resumeNDJSON(ctx, thread, last)
	if err != nil {
		e.t.Fatal(err)
	}
	return events
}

// resumeNDJSON resumes thread's NDJSON stream from last and reads it to
// its end.
func (e *env) resumeNDJSON(ctx context.Context, thread, last string) ([]contract.RunEvent, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, e.srv.URL+"?threadId="+thread, nil)
	if err != nil {
		return nil, err
	}
	req.Header.Set("Accept", ndjsonType)
	req.Header.Set("Last-Event-ID", last)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil || resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("resume from %q: %d %v\n%s", last, resp.StatusCode, err, b)
	}
	var events []contract.RunEvent
	for ev, err := range ledger.ReadJSONL(bytes.NewReader(b)) {
		if err != nil {
			return nil, fmt.Errorf("resume from %q: %w", last, err)
		}
		events = append(events, ev)
	}
	return events, nil
}

// TestAnNDJSONStreamResumesInsideADelegatedRun: an NDJSON stream cut
// right after any of its events, a delegate's text delta included, and
// resumed from the id its client forms of that event gives the rest of
// the stream once: the text the client ends with is the uninterrupted
// stream's. A delegate's events could not be named, so a client cut
// inside one resumed from its own run's event before it, and had the
// delegate's text twice. A stream so resumed is cut again halfway, its
// client naming its events from what it had before too.
func TestAnNDJSONStreamResumesInsideADelegatedRun(t *testing.T) {
	e := startEnv(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: streamingDelegateScript, cfg: delegatingConfig()})
	resp := e.post(context.Background(), runBody("t-dn", "weather in Paris?"), map[string]string{"Accept": ndjsonType})
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	events := readNDJSON(t, string(b))
	want, wantText := sessionLines(events), deltaText(events)
	delegated := 0
	for _, ev := range events {
		if len(ev.Subflow) > 0 && ev.Kind == contract.EvTextDelta {
			delegated++
		}
	}
	if delegated < 2 || !strings.Contains(wantText, "18C, cloudy in Paris.") {
		t.Fatalf("the stream has %d text deltas of the delegate, want several:\n%s", delegated, b)
	}
	for i := range events[:len(events)-1] {
		had := events[: i+1 : i+1]
		last := ndjsonLastID(had)
		resumed := e.getNDJSON("t-dn", last)
		got := append(had, resumed...)
		if text := deltaText(got); text != wantText {
			t.Errorf("cut after %s, resumed from %q: text %q, want %q", want[i], last, text, wantText)
		}
		if diff := cmp.Diff(want, sessionLines(got)); diff != "" {
			t.Fatalf("cut after %s, resumed from %q: mismatch (-whole stream +cut and resumed):\n%s", want[i], last, diff)
		}
		if len(resumed) < 2 {
			continue
		}
		j := len(resumed) / 2
		had = append(had, resumed[:j]...)
		again := ndjsonLastID(had)
		got = append(had, e.getNDJSON("t-dn", again)...)
		if diff := cmp.Diff(want, sessionLines(got)); diff != "" {
			t.Fatalf("cut after %s, resumed from %q, then from %q: mismatch (-whole stream +cut and resumed):\n%s", want[i], last, again, diff)
		}
	}
}

// TestAnNDJSONStreamResumesInsideADelegatedRunFromTheStore: once the
// thread was opened again (another handler over the same store), the
// delegate's deltas are gone: a client cut anywhere, inside the
// delegate included, gets the stored events it lacks, none it had, and
// the delegate's reply whole in its stored turn.
func TestAnNDJSONStreamResumesInsideADelegatedRunFromTheStore(t *testing.T) {
	shared := store.NewMemory()
	first := startEnvWith(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: streamingDelegateScript, cfg: delegatingConfig()}, envOptions{store: shared})
	resp := first.post(context.Background(), runBody("t-ds", "weather in Paris?"), map[string]string{"Accept": ndjsonType})
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		t.Fatal(err)
	}
	events := readNDJSON(t, string(b))
	if err := first.h.Close(); err != nil {
		t.Fatal(err)
	}
	again := startEnvWith(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: streamingDelegateScript, cfg: delegatingConfig()}, envOptions{store: shared})
	for i := range events[:len(events)-1] {
		last := ndjsonLastID(events[:i+1])
		var want []contract.RunEvent
		for _, ev := range events[i+1:] {
			if track.Stored(ev) {
				want = append(want, ev)
			}
		}
		if diff := cmp.Diff(sessionLines(want), sessionLines(again.getNDJSON("t-ds", last))); diff != "" {
			t.Fatalf("cut after %s, resumed from %q: mismatch (-stored rest of the stream +resumed):\n%s", sessionLines(events)[i], last, diff)
		}
	}
}

// TestAnNDJSONStreamResumesInsideADelegatedRunInFlight: a client cut
// anywhere in a delegate's events while the run is still in flight (its
// last model call held) resumes right after the event it names and
// follows the run live to its end, with the text of the uninterrupted
// stream.
func TestAnNDJSONStreamResumesInsideADelegatedRunInFlight(t *testing.T) {
	gate, release := heldGate(t)
	scripts := func() []func(context.Context) ([]turn.Chunk, error) {
		replies := streamingDelegateScript()
		replies[3] = gated(gate, replies[3])
		return replies
	}
	e := startEnv(&env{t: t, agents: map[string]*conductor.Agent{}, scripts: scripts, cfg: delegatingConfig()})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	resp := e.post(ctx, runBody("t-dl", "weather in Paris?"), map[string]string{"Accept": ndjsonType})
	defer resp.Body.Close()
	lines := bufio.NewReader(resp.Body)
	var events []contract.RunEvent
	for len(events) == 0 || !(events[len(events)-1].Kind == contract.EvToolResult && len(events[len(events)-1].Subflow) == 0) {
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("the stream ended before the delegate call's result: %v", err)
		}
		events = append(events, readNDJSON(t, line)...)
	}
	type resumed struct {
		had    []contract.RunEvent
		events chan []contract.RunEvent
	}
	var cuts []resumed
	for i, ev := range events {
		if len(ev.Subflow) == 0 {
			continue
		}
		c := resumed{had: events[: i+1 : i+1], events: make(chan []contract.RunEvent, 1)}
		last := ndjsonLastID(c.had)
		go func() {
			events, err := e.resumeNDJSON(ctx, "t-dl", last)
			if err != nil {
				t.Error(err)
			}
			c.events <- events
		}()
		cuts = append(cuts, c)
	}
	// Every resumed stream follows the run before it goes on.
	for e.users("t-dl") < len(cuts)+1 {
		select {
		case <-ctx.Done():
			t.Fatalf("%d streams follow the thread, want %d", e.users("t-dl"), len(cuts)+1)
		case <-time.After(time.Millisecond):
		}
	}
	release()
	rest, err := io.ReadAll(lines)
	if err != nil {
		t.Fatal(err)
	}
	events = append(events, readNDJSON(t, string(rest))...)
	want, wantText := sessionLines(events), deltaText(events)
	for _, c := range cuts {
		got := append(c.had, <-c.events...)
		if text := deltaText(got); text != wantText {
			t.Errorf("cut after %s: text %q, want %q", sessionLines(c.had)[len(c.had)-1], text, wantText)
		}
		if diff := cmp.Diff(want, sessionLines(got)); diff != "" {
			t.Fatalf("cut after %s: mismatch (-whole stream +cut and resumed):\n%s", sessionLines(c.had)[len(c.had)-1], diff)
		}
	}
}
