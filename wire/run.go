package wire

import (
	"context"
	"net/http"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/wire/agui"
	"github.com/batonrt/baton/wire/aisdk"
)

// run starts a run on the thread and streams it. The run belongs to the
// thread, not to the request: a client that leaves stops its stream and
// its subscription, while the run goes on so that the client can resume.
func (h *Handler) run(w http.ResponseWriter, r *http.Request, proto Protocol, threadID, clientRunID string, turns []contract.Turn) {
	ctx := r.Context()
	t, code, err := h.lookup(ctx, threadID, true)
	if err != nil {
		httpError(w, code, "%v", err)
		return
	}
	if !h.claim(t) {
		httpError(w, http.StatusConflict, "wire: thread %q already has a run in flight", threadID)
		return
	}
	f := newFeed(ctx)
	unsubscribe := t.r.Subscribe(f.push)
	defer unsubscribe()
	s := newStreamer(w, r, t.r, threadID, proto)
	// Read before the run starts: everything newer is this run's.
	s.last, s.started = t.r.Snapshot().Seq, true
	done := make(chan struct{})
	var runErr error
	h.runs.Add(1)
	go func() {
		defer h.runs.Done()
		defer close(done)
		defer h.release(t)
		_, runErr = t.r.Submit(context.WithoutCancel(ctx), turns)
	}()
	w.WriteHeader(http.StatusOK)
	err = s.follow(ctx, f, done)
	if err == nil && s.runID == "" {
		// The run never started: say why in the protocol's terms.
		<-done
		err = s.failedToStart(threadID, clientRunID, runErr)
	}
	if err == nil {
		err = s.done()
	}
	if err != nil && ctx.Err() == nil {
		h.opts.Logger.Warn("wire: stream ended early", "thread", threadID, "err", err)
	}
}

func (s *streamer) failedToStart(threadID, runID string, runErr error) error {
	msg := "run did not start"
	code := string(contract.KindInternal)
	if runErr != nil {
		msg = runErr.Error()
		if re, ok := contract.AsRunError(runErr); ok {
			code = string(re.Kind)
		}
	}
	switch {
	case s.nd != nil:
		return s.nd.writeEvent(contract.RunEvent{SessionID: threadID, Kind: contract.EvRunFaulted, Text: msg, Err: &contract.RunError{Kind: contract.ErrorKind(code), Message: msg}})
	case s.ui != nil:
		return s.writeUI([]aisdk.Chunk{
			{Type: aisdk.Start, MessageMetadata: aisdk.Metadata{SessionID: threadID, RunID: runID}},
			{Type: aisdk.Error, ErrorText: msg},
			{Type: aisdk.Finish, FinishReason: "error"},
		})
	}
	return s.writeAGUI([]agui.Event{
		{Type: agui.RunStarted, ThreadID: threadID, RunID: runID},
		{Type: agui.RunError, Message: msg, Code: code},
	})
}

func (h *Handler) claim(t *thread) bool {
	h.mu.Lock()
	defer h.mu.Unlock()
	if t.running || t.r.Snapshot().Phase.InFlight() {
		return false
	}
	t.running = true
	return true
}

func (h *Handler) release(t *thread) {
	h.mu.Lock()
	t.running = false
	h.mu.Unlock()
}
