package contract

import (
	"errors"
	"fmt"
	"strings"
)

// ErrorKind classifies a RunError.
type ErrorKind string

const (
	KindModel    ErrorKind = "model"
	KindTool     ErrorKind = "tool"
	KindStore    ErrorKind = "store"
	KindAborted  ErrorKind = "aborted"
	KindMaxTurns ErrorKind = "max_turns"
	KindLoop     ErrorKind = "loop"
	KindConfig   ErrorKind = "config"
	KindInternal ErrorKind = "internal"
	// KindRetrieval: the retriever failed, and the host did not mark it
	// optional.
	KindRetrieval ErrorKind = "retrieval"
	// KindOutput: the final answer did not match the output schema, after
	// every retry.
	KindOutput ErrorKind = "output"
)

// RunError is the one error type a run ends with. errors.Is matches it
// against the sentinels below by kind.
type RunError struct {
	Kind    ErrorKind `json:"kind"`
	Message string    `json:"message"`
	// Fields names each bad field of a configuration error.
	Fields []FieldError `json:"fields,omitempty"`
	// Cause is the underlying error; it is not part of the encoding.
	Cause error `json:"-"`
}

// FieldError names one bad configuration field and why.
type FieldError struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
}

// Sentinels for errors.Is: a RunError matches the sentinel of its kind.
var (
	ErrModel     = &RunError{Kind: KindModel}
	ErrTool      = &RunError{Kind: KindTool}
	ErrStore     = &RunError{Kind: KindStore}
	ErrAborted   = &RunError{Kind: KindAborted}
	ErrMaxTurns  = &RunError{Kind: KindMaxTurns}
	ErrLoop      = &RunError{Kind: KindLoop}
	ErrConfig    = &RunError{Kind: KindConfig}
	ErrInternal  = &RunError{Kind: KindInternal}
	ErrRetrieval = &RunError{Kind: KindRetrieval}
	ErrOutput    = &RunError{Kind: KindOutput}
)

// NewError returns a RunError of the kind with a formatted message.
func NewError(kind ErrorKind, format string, args ...any) *RunError {
	return &RunError{Kind: kind, Message: fmt.Sprintf(format, args...)}
}

// WrapError returns a RunError of the kind that wraps cause.
func WrapError(kind ErrorKind, cause error, message string) *RunError {
	return &RunError{Kind: kind, Message: message, Cause: cause}
}

func (e *RunError) Error() string {
	var b strings.Builder
	b.WriteString("baton: ")
	b.WriteString(string(e.Kind))
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	for i, f := range e.Fields {
		if i == 0 {
			b.WriteString(": ")
		} else {
			b.WriteString("; ")
		}
		b.WriteString(f.Field + " " + f.Reason)
	}
	if e.Cause != nil {
		b.WriteString(": ")
		b.WriteString(e.Cause.Error())
	}
	return b.String()
}

func (e *RunError) Unwrap() error { return e.Cause }

// Is matches a sentinel (a RunError with only a Kind) of the same kind.
func (e *RunError) Is(target error) bool {
	t, ok := target.(*RunError)
	if !ok {
		return false
	}
	return t.Kind == e.Kind && t.Message == "" && t.Cause == nil && len(t.Fields) == 0
}

// AsRunError returns err's RunError, if it has one.
func AsRunError(err error) (*RunError, bool) {
	var re *RunError
	ok := errors.As(err, &re)
	return re, ok
}
