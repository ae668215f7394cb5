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
// again to compact it (the encoder's output is compact already).
func encodeEnvelope(env envelope, body any) ([]byte, error) {
	var buf bytes.Buffer
	buf.Grow(512)
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	// Encode ends every value with a newline, which the next field's
	// separator replaces.
	value := func(v any) error {
		if err := enc.Encode(v); err != nil {
			return err
		}
		buf.Truncate(buf.Len() - 1)
		return nil
	}
	// A string the encoder would copy as it is goes in directly, without
	// boxing it for Encode: the same bytes, fewer allocations per record.
	str := func(v string) error {
		if !plainJSONString(v) {
			return value(v)
		}
		buf.WriteByte('"')
		buf.WriteString(v)
		buf.WriteByte('"')
		return nil
	}
	buf.WriteString(`{"v":`)
	buf.WriteString(strconv.Itoa(env.V))
	if env.Step != 0 {
		buf.WriteString(`,"step":`)
		buf.WriteString(strconv.FormatUint(env.Step, 10))
	}
	buf.WriteString(`,"kind":`)
	if err := str(env.Kind); err != nil {
		return nil, fmt.Errorf("contract: encode %s: %w", env.Kind, err)
	}
	buf.WriteString(`,"body":`)
	if err := value(body); err != nil {
		return nil, fmt.Errorf("contract: encode %s: %w", env.Kind, err)
	}
	if env.Effect != "" {
		buf.WriteString(`,"effects":`)
		if err := str(env.Effect); err != nil {
			return nil, fmt.Errorf("contract: encode %s: %w", env.Kind, err)
		}
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}

// plainJSONString reports whether encoding/json (HTML escaping off)
// writes s between quotes unchanged: printable ASCII other than the quote
// and the backslash.
func plainJSONString(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			return false
		}
	}
	return true
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
	if r.Signal == nil {
		return nil, fmt.Errorf("contract: encode record %d: no signal", r.Step)
	}
	return encodeEnvelope(envelope{V: SchemaVersion, Step: r.Step, Kind: string(r.Signal.SignalKind()), Effect: r.Effects}, r.Signal)
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
