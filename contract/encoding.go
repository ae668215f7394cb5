package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
)

// SchemaVersion is the version of the canonical encoding this release
// writes. It reads every version up to this one.
const SchemaVersion = 1

// Errors of the canonical decoders, for errors.Is.
var (
	// ErrMalformed: the bytes are not a valid encoding.
	ErrMalformed = errors.New("contract: malformed encoding")
	// ErrSchemaVersion: the bytes were written by a newer release.
	ErrSchemaVersion = errors.New("contract: unsupported schema version")
)

// The canonical encoding is JSON with struct fields in declaration order,
// no insignificant whitespace and no maps, so the same value always yields
// the same bytes. Every top-level value is wrapped in an envelope naming
// its schema version.

type envelope struct {
	V      int             `json:"v"`
	Step   uint64          `json:"step,omitempty"`
	Kind   string          `json:"kind"`
	Body   json.RawMessage `json:"body"`
	Effect string          `json:"effects,omitempty"`
}

func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

func unmarshalStrict(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("trailing data")
	}
	return nil
}

// EncodeSignal returns the canonical bytes of a signal.
func EncodeSignal(s Signal) ([]byte, error) {
	return encodeEnvelope(envelope{V: SchemaVersion, Kind: string(s.SignalKind())}, s)
}

// encodeEnvelope writes the envelope's fields around the body in one
// buffer: the bytes are those of marshalling the envelope struct with the
// body as a RawMessage, without encoding the body twice or scanning it
// again to compact it. The signals of every turn are written by hand
// (appendBody); the rest go through encoding/json.
func encodeEnvelope(env envelope, body any) ([]byte, error) {
	return appendEnvelope(make([]byte, 0, 512), env, body)
}

// appendEnvelope is encodeEnvelope appending to b.
func appendEnvelope(b []byte, env envelope, body any) ([]byte, error) {
	b = append(b, `{"v":`...)
	b = strconv.AppendInt(b, int64(env.V), 10)
	if env.Step != 0 {
		b = append(b, `,"step":`...)
		b = strconv.AppendUint(b, env.Step, 10)
	}
	b = append(b, `,"kind":`...)
	b = appendJSONString(b, env.Kind)
	b = append(b, `,"body":`...)
	var ok bool
	if b, ok = appendBody(b, body); !ok {
		v, err := marshal(body)
		if err != nil {
			return nil, fmt.Errorf("contract: encode %s: %w", env.Kind, err)
		}
		b = append(b, v...)
	}
	if env.Effect != "" {
		b = append(b, `,"effects":`...)
		b = appendJSONString(b, env.Effect)
	}
	return append(b, '}'), nil
}

func decodeEnvelope(b []byte) (envelope, error) {
	var env envelope
	if len(b) == 0 {
		return env, fmt.Errorf("%w: empty", ErrMalformed)
	}
	var probe struct {
		V int `json:"v"`
	}
	if err := json.Unmarshal(b, &probe); err != nil {
		return env, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	if probe.V > SchemaVersion {
		return env, fmt.Errorf("%w: version %d, this release reads up to %d", ErrSchemaVersion, probe.V, SchemaVersion)
	}
	if probe.V < 1 {
		return env, fmt.Errorf("%w: missing version", ErrMalformed)
	}
	if err := unmarshalStrict(b, &env); err != nil {
		return env, fmt.Errorf("%w: %v", ErrMalformed, err)
	}
	return env, nil
}

// DecodeSignal parses canonical signal bytes.
func DecodeSignal(b []byte) (Signal, error) {
	env, err := decodeEnvelope(b)
	if err != nil {
		return nil, err
	}
	return decodeSignalBody(SignalKind(env.Kind), env.Body)
}

func decodeSignalBody(kind SignalKind, body []byte) (Signal, error) {
	var s Signal
	var err error
	switch kind {
	case SigSubmitted:
		s, err = decodeAs[Submitted](body)
	case SigSteered:
		s, err = decodeAs[Steered](body)
	case SigFollowUpQueued:
		s, err = decodeAs[FollowUpQueued](body)
	case SigModelReplied:
		s, err = decodeAs[ModelReplied](body)
	case SigModelFailed:
		s, err = decodeAs[ModelFailed](body)
	case SigToolStarted:
		s, err = decodeAs[ToolStarted](body)
	case SigToolSettled:
		s, err = decodeAs[ToolSettled](body)
	case SigApprovalResolved:
		s, err = decodeAs[ApprovalResolved](body)
	case SigHumanAnswered:
		s, err = decodeAs[HumanAnswered](body)
	case SigCompacted:
		s, err = decodeAs[Compacted](body)
	case SigCompactionFailed:
		s, err = decodeAs[CompactionFailed](body)
	case SigAbortRequested:
		s, err = decodeAs[AbortRequested](body)
	case SigResumed:
		s, err = decodeAs[Resumed](body)
	case SigDelegateSettled:
		s, err = decodeAs[DelegateSettled](body)
	case SigAllowanceShared:
		s, err = decodeAs[AllowanceShared](body)
	case SigToolsChanged:
		s, err = decodeAs[ToolsChanged](body)
	default:
		return nil, fmt.Errorf("%w: unknown signal kind %q", ErrMalformed, kind)
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrMalformed, kind, err)
	}
	return s, nil
}

func decodeAs[T Signal](body []byte) (Signal, error) {
	var v T
	if err := unmarshalStrict(body, &v); err != nil {
		return nil, err
	}
	return v, nil
}

// EncodeRecord returns the canonical bytes of a record.
func EncodeRecord(r Record) ([]byte, error) {
	return AppendRecord(make([]byte, 0, 512), r)
}

// RecordAlwaysEncodes reports whether AppendRecord cannot fail for a
// record of sig: the signals recorded on every turn (a model's reply, a
// tool's result) are written by hand from values that always encode. A
// store may keep such a record as it is and encode it when it is read.
func RecordAlwaysEncodes(sig Signal) bool {
	switch sig.(type) {
	case ModelReplied, ToolSettled:
		return true
	}
	return false
}

// AppendRecord appends the canonical bytes of a record to b, so a
// container of records (a store's node) is written in one buffer. On
// error b is returned as it was.
func AppendRecord(b []byte, r Record) ([]byte, error) {
	if r.Signal == nil {
		return b, fmt.Errorf("contract: encode record %d: no signal", r.Step)
	}
	out, err := appendEnvelope(b, envelope{V: SchemaVersion, Step: r.Step, Kind: string(r.Signal.SignalKind()), Effect: r.Effects}, r.Signal)
	if err != nil {
		return b, err
	}
	return out, nil
}

// DecodeRecord parses canonical record bytes.
func DecodeRecord(b []byte) (Record, error) {
	env, err := decodeEnvelope(b)
	if err != nil {
		return Record{}, err
	}
	s, err := decodeSignalBody(SignalKind(env.Kind), env.Body)
	if err != nil {
		return Record{}, err
	}
	return Record{Step: env.Step, Signal: s, Effects: env.Effect}, nil
}

// EncodeSnapshot returns the canonical bytes of a snapshot.
func EncodeSnapshot(s RunSnapshot) ([]byte, error) {
	return encodeEnvelope(envelope{V: SchemaVersion, Kind: "snapshot"}, s)
}

// DecodeSnapshot parses canonical snapshot bytes.
func DecodeSnapshot(b []byte) (RunSnapshot, error) {
	env, err := decodeEnvelope(b)
	if err != nil {
		return RunSnapshot{}, err
	}
	if env.Kind != "snapshot" {
		return RunSnapshot{}, fmt.Errorf("%w: kind %q is not a snapshot", ErrMalformed, env.Kind)
	}
	var s RunSnapshot
	if err := unmarshalStrict(env.Body, &s); err != nil {
		return RunSnapshot{}, fmt.Errorf("%w: snapshot: %v", ErrMalformed, err)
	}
	return s, nil
}

// EncodeEvent returns the canonical bytes of an event (one JSON object,
// no envelope: events are a stream format, not stored state).
func EncodeEvent(e RunEvent) ([]byte, error) { return marshal(e) }
