package scripted

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/batonrt/baton/contract"
)

// Reply is one scripted model call.
type Reply struct {
	Text      string
	Thinking  string
	Signature string
	Calls     []Call
	Usage     contract.Usage
	// Stop defaults to tool_use when there are calls, else end_turn.
	Stop contract.StopReason
	// FirstDelay comes before the first chunk, ChunkDelay before each
	// later one; both end early when the context does.
	FirstDelay, ChunkDelay time.Duration
	// Fail, when set, replaces the end of the reply with a failure.
	Fail *Failure
}

// Call is a scripted tool call; Arguments is the text the model sends,
// which may be malformed on purpose.
type Call struct {
	ID        string
	Name      string
	Arguments string
}

// Failure says how a scripted call fails. After the first After chunks of
// the reply: with Hang the stream waits until its context ends; with Cut
// it just ends, without a stop; otherwise it yields a *turn.ProviderError
// (an HTTP error when After is 0 and Status is set, else an in-stream
// error frame).
type Failure struct {
	Status int
	// Kind defaults to turn.FailureForStatus(Status), or server without a
	// status.
	Kind       contract.FailureKind
	RetryAfter time.Duration
	Message    string
	After      int
	Cut        bool
	Hang       bool
}

type replyJSON struct {
	Text       string              `json:"text,omitempty"`
	Thinking   string              `json:"thinking,omitempty"`
	Signature  string              `json:"signature,omitempty"`
	Calls      []Call              `json:"tool_calls,omitempty"`
	Usage      contract.Usage      `json:"usage,omitzero"`
	Stop       contract.StopReason `json:"stop,omitempty"`
	FirstDelay duration            `json:"first_delay,omitempty"`
	ChunkDelay duration            `json:"chunk_delay,omitempty"`
	Fail       *Failure            `json:"fail,omitempty"`
}

type failureJSON struct {
	Status     int                  `json:"status,omitempty"`
	Kind       contract.FailureKind `json:"kind,omitempty"`
	RetryAfter duration             `json:"retry_after,omitempty"`
	Message    string               `json:"message,omitempty"`
	After      int                  `json:"after,omitempty"`
	Cut        bool                 `json:"cut,omitempty"`
	Hang       bool                 `json:"hang,omitempty"`
}

type callJSON struct {
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name"`
	Arguments json.RawMessage `json:"arguments,omitempty"`
}

// MarshalJSON writes durations as Go duration strings ("250ms").
func (r Reply) MarshalJSON() ([]byte, error) {
	return json.Marshal(replyJSON{r.Text, r.Thinking, r.Signature, r.Calls, r.Usage, r.Stop, duration(r.FirstDelay), duration(r.ChunkDelay), r.Fail})
}

// UnmarshalJSON reads the script format; durations are strings such as
// "250ms".
func (r *Reply) UnmarshalJSON(b []byte) error {
	var j replyJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*r = Reply{j.Text, j.Thinking, j.Signature, j.Calls, j.Usage, j.Stop, time.Duration(j.FirstDelay), time.Duration(j.ChunkDelay), j.Fail}
	return nil
}

// MarshalJSON writes RetryAfter as a Go duration string.
func (f Failure) MarshalJSON() ([]byte, error) {
	return json.Marshal(failureJSON{f.Status, f.Kind, duration(f.RetryAfter), f.Message, f.After, f.Cut, f.Hang})
}

// UnmarshalJSON reads the "fail" object of the script format.
func (f *Failure) UnmarshalJSON(b []byte) error {
	var j failureJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*f = Failure{j.Status, j.Kind, time.Duration(j.RetryAfter), j.Message, j.After, j.Cut, j.Hang}
	return nil
}

// MarshalJSON writes arguments as the JSON string the model sent.
func (c Call) MarshalJSON() ([]byte, error) {
	args, _ := json.Marshal(c.Arguments)
	return json.Marshal(callJSON{c.ID, c.Name, args})
}

// UnmarshalJSON takes arguments either as a string (the exact text, which
// may be malformed) or as a JSON value written inline.
func (c *Call) UnmarshalJSON(b []byte) error {
	var j callJSON
	if err := strictUnmarshal(b, &j); err != nil {
		return err
	}
	*c = Call{ID: j.ID, Name: j.Name}
	if len(j.Arguments) > 0 && j.Arguments[0] == '"' {
		return json.Unmarshal(j.Arguments, &c.Arguments)
	}
	c.Arguments = string(j.Arguments)
	return nil
}

// duration is a time.Duration written as a Go duration string.
type duration time.Duration

func (d duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

func (d *duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("duration must be a string such as \"250ms\": %w", err)
	}
	v, err := time.ParseDuration(s)
	if err != nil {
		return err
	}
	*d = duration(v)
	return nil
}
