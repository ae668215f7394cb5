package contract_test

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

var update = flag.Bool("update", false, "rewrite the golden fixtures under testdata/")

func TestSignalRoundTrip(t *testing.T) {
	signals := sampleSignals()
	if len(signals) != len(contract.SignalKinds) {
		t.Fatalf("sampleSignals has %d signals, want one per kind (%d)", len(signals), len(contract.SignalKinds))
	}
	for i, sig := range signals {
		t.Run(string(sig.SignalKind()), func(t *testing.T) {
			if sig.SignalKind() != contract.SignalKinds[i] {
				t.Fatalf("signal %d is %s, want %s", i, sig.SignalKind(), contract.SignalKinds[i])
			}
			b, err := contract.EncodeSignal(sig)
			if err != nil {
				t.Fatal(err)
			}
			got, err := contract.DecodeSignal(b)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(sig, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			again, err := contract.EncodeSignal(got)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(b, again) {
				t.Errorf("re-encoding changed the bytes:\n%s\n%s", b, again)
			}
		})
	}
}

func TestSnapshotRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		name string
		snap contract.RunSnapshot
	}{
		{"full", sampleSnapshot()},
		{"empty", contract.RunSnapshot{SessionID: "s", Phase: contract.PhaseIdle}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := contract.EncodeSnapshot(tc.snap)
			if err != nil {
				t.Fatal(err)
			}
			got, err := contract.DecodeSnapshot(b)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.snap, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
			again, _ := contract.EncodeSnapshot(got)
			if !bytes.Equal(b, again) {
				t.Errorf("re-encoding changed the bytes:\n%s\n%s", b, again)
			}
		})
	}
}

func TestRecordRoundTrip(t *testing.T) {
	rec := sampleRecord()
	b, err := contract.EncodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := contract.DecodeRecord(b)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(rec, got); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
	if _, err := contract.EncodeRecord(contract.Record{Step: 1}); err == nil {
		t.Error("EncodeRecord without a signal: no error")
	}
}

// TestEncodingDeterministic: equal values built separately give equal bytes.
func TestEncodingDeterministic(t *testing.T) {
	a, _ := contract.EncodeSnapshot(sampleSnapshot())
	b, _ := contract.EncodeSnapshot(sampleSnapshot())
	if !bytes.Equal(a, b) {
		t.Fatalf("two encodings of equal snapshots differ:\n%s\n%s", a, b)
	}
	if !bytes.HasPrefix(a, []byte(`{"v":1,`)) {
		t.Errorf("encoding does not lead with its schema version: %.40s", a)
	}
}

// goldenCase is one pinned fixture: its file and how to decode and
// re-encode it.
type goldenCase struct {
	file   string
	encode func() ([]byte, error)
	reenc  func([]byte) ([]byte, error)
}

func goldenCases() []goldenCase {
	var cases []goldenCase
	for _, sig := range sampleSignals() {
		cases = append(cases, goldenCase{
			file:   "signal_" + string(sig.SignalKind()) + ".json",
			encode: func() ([]byte, error) { return contract.EncodeSignal(sig) },
			reenc: func(b []byte) ([]byte, error) {
				s, err := contract.DecodeSignal(b)
				if err != nil {
					return nil, err
				}
				return contract.EncodeSignal(s)
			},
		})
	}
	cases = append(cases,
		goldenCase{
			file:   "snapshot.json",
			encode: func() ([]byte, error) { return contract.EncodeSnapshot(sampleSnapshot()) },
			reenc: func(b []byte) ([]byte, error) {
				s, err := contract.DecodeSnapshot(b)
				if err != nil {
					return nil, err
				}
				return contract.EncodeSnapshot(s)
			},
		},
		goldenCase{
			file:   "record.json",
			encode: func() ([]byte, error) { return contract.EncodeRecord(sampleRecord()) },
			reenc: func(b []byte) ([]byte, error) {
				r, err := contract.DecodeRecord(b)
				if err != nil {
					return nil, err
				}
				return contract.EncodeRecord(r)
			},
		},
	)
	return cases
}

// TestGoldenFixtures pins today's bytes: each fixture must decode and
// re-encode to itself, and today's encoder must still write it. Run with
// -update only when the encoding changes on purpose, and bump
// SchemaVersion when old fixtures would no longer decode.
func TestGoldenFixtures(t *testing.T) {
	for _, tc := range goldenCases() {
		t.Run(tc.file, func(t *testing.T) {
			path := filepath.Join("testdata", tc.file)
			fresh, err := tc.encode()
			if err != nil {
				t.Fatal(err)
			}
			if *update {
				if err := os.WriteFile(path, append(fresh, '\n'), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			pinned := bytes.TrimSuffix(raw, []byte("\n"))
			again, err := tc.reenc(pinned)
			if err != nil {
				t.Fatalf("decode pinned fixture: %v", err)
			}
			if !bytes.Equal(pinned, again) {
				t.Errorf("pinned fixture does not re-encode to itself:\npinned %s\nagain  %s", pinned, again)
			}
			if !bytes.Equal(pinned, fresh) {
				t.Errorf("today's encoder writes different bytes:\npinned %s\nfresh  %s", pinned, fresh)
			}
		})
	}
}

func TestSchemaVersion(t *testing.T) {
	good, _ := contract.EncodeSignal(contract.Resumed{At: 1})
	newer := bytes.Replace(good, []byte(`"v":1`), []byte(`"v":2`), 1)
	decoders := map[string]func([]byte) error{
		"signal":   func(b []byte) error { _, err := contract.DecodeSignal(b); return err },
		"record":   func(b []byte) error { _, err := contract.DecodeRecord(b); return err },
		"snapshot": func(b []byte) error { _, err := contract.DecodeSnapshot(b); return err },
	}
	for _, name := range []string{"signal", "record", "snapshot"} {
		err := decoders[name](newer)
		if !errors.Is(err, contract.ErrSchemaVersion) {
			t.Errorf("%s: v=2 gave %v, want ErrSchemaVersion", name, err)
		}
		if errors.Is(err, contract.ErrMalformed) {
			t.Errorf("%s: v=2 also matches ErrMalformed", name)
		}
	}
}

func TestMalformed(t *testing.T) {
	good, _ := contract.EncodeSignal(contract.ToolStarted{CallID: "c1", At: 1})
	snap, _ := contract.EncodeSnapshot(contract.RunSnapshot{SessionID: "s", Phase: contract.PhaseIdle})
	cases := []struct {
		name string
		in   string
	}{
		{"empty", ``},
		{"whitespace", `   `},
		{"not json", `hello`},
		{"null", `null`},
		{"array", `[1,2]`},
		{"truncated", string(good[:len(good)/2])},
		{"truncated by one", string(good[:len(good)-1])},
		{"missing version", `{"kind":"resumed","body":{"at":1}}`},
		{"version zero", `{"v":0,"kind":"resumed","body":{"at":1}}`},
		{"negative version", `{"v":-1,"kind":"resumed","body":{"at":1}}`},
		{"version not a number", `{"v":"1","kind":"resumed","body":{"at":1}}`},
		{"unknown kind", `{"v":1,"kind":"teleported","body":{"at":1}}`},
		{"empty kind", `{"v":1,"kind":"","body":{}}`},
		{"unknown envelope field", `{"v":1,"kind":"resumed","body":{"at":1},"extra":true}`},
		{"unknown body field", `{"v":1,"kind":"resumed","body":{"at":1,"when":2}}`},
		{"body of the wrong type", `{"v":1,"kind":"tool_started","body":{"call_id":7,"at":1}}`},
		{"body not an object", `{"v":1,"kind":"tool_started","body":"x"}`},
		{"missing body", `{"v":1,"kind":"tool_started"}`},
		{"trailing data", string(good) + `{}`},
		{"snapshot as signal", string(snap)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := contract.DecodeSignal([]byte(tc.in)); !errors.Is(err, contract.ErrMalformed) {
				t.Errorf("DecodeSignal(%q) = %v, want ErrMalformed", tc.in, err)
			}
			if _, err := contract.DecodeRecord([]byte(tc.in)); !errors.Is(err, contract.ErrMalformed) {
				t.Errorf("DecodeRecord(%q) = %v, want ErrMalformed", tc.in, err)
			}
		})
	}
	snapCases := []string{``, `{"v":1,"kind":"resumed","body":{"at":1}}`, string(snap[:len(snap)-2]),
		`{"v":1,"kind":"snapshot","body":{"session_id":"s","phase":"idle","seq":0,"steps":0,"bogus":1}}`,
		`{"v":1,"kind":"snapshot","body":{"history":{}}}`}
	for _, in := range snapCases {
		if _, err := contract.DecodeSnapshot([]byte(in)); !errors.Is(err, contract.ErrMalformed) {
			t.Errorf("DecodeSnapshot(%q) = %v, want ErrMalformed", in, err)
		}
	}
}

func TestEncodeEvent(t *testing.T) {
	ev := contract.RunEvent{Seq: 3, SessionID: "s", RunID: "r", At: 9, Kind: contract.EvToolResult,
		Result: &contract.ToolResult{CallID: "c1", Name: "echo", Content: "<ok>"}}
	b, err := contract.EncodeEvent(ev)
	if err != nil {
		t.Fatal(err)
	}
	want := `{"seq":3,"session_id":"s","run_id":"r","at":9,"kind":"tool_result","result":{"call_id":"c1","name":"echo","content":"<ok>"}}`
	if diff := cmp.Diff(want, string(b)); diff != "" {
		t.Errorf("mismatch (-want +got):\n%s", diff)
	}
}

func FuzzDecodeRecord(f *testing.F) {
	for _, tc := range goldenCases() {
		if b, err := tc.encode(); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"v":2,"kind":"resumed","body":{}}`))
	f.Add([]byte(`{"v":1,"step":1,"kind":"resumed","body":{"at":1},"effects":"x"}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		rec, err := contract.DecodeRecord(b)
		if err != nil {
			if !errors.Is(err, contract.ErrMalformed) && !errors.Is(err, contract.ErrSchemaVersion) {
				t.Fatalf("error matches neither sentinel: %v", err)
			}
			return
		}
		// What decodes must re-encode to canonical bytes that are a fixed
		// point, and to an equal record (empty and nil slices are one value
		// to the encoding).
		enc, err := contract.EncodeRecord(rec)
		if err != nil {
			t.Fatalf("re-encode: %v", err)
		}
		back, err := contract.DecodeRecord(enc)
		if err != nil {
			t.Fatalf("decode of re-encoded %s: %v", enc, err)
		}
		if diff := cmp.Diff(rec, back, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("mismatch (-want +got):\n%s", diff)
		}
		again, err := contract.EncodeRecord(back)
		if err != nil || !bytes.Equal(enc, again) {
			t.Fatalf("canonical bytes are not a fixed point (%v):\n%s\n%s", err, enc, again)
		}
	})
}

func ExampleEncodeSignal() {
	b, err := contract.EncodeSignal(contract.ToolStarted{CallID: "c1", At: 42})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	sig, err := contract.DecodeSignal(b)
	fmt.Println(sig.SignalKind(), err)
	_, err = contract.DecodeSignal([]byte(strings.Replace(string(b), `"v":1`, `"v":2`, 1)))
	fmt.Println(errors.Is(err, contract.ErrSchemaVersion))
	// Output:
	// {"v":1,"kind":"tool_started","body":{"call_id":"c1","at":42}}
	// tool_started <nil>
	// true
}

// AppendRecord writes after what the buffer holds the bytes EncodeRecord
// returns, and leaves the buffer as it was when the record has no signal.
func TestAppendRecord(t *testing.T) {
	rec := contract.Record{Step: 3, Signal: contract.ToolSettled{CallID: "c1", Outcome: contract.ToolOutcome{Content: "ok \u2028 <b>"}, At: 7}, Effects: "publish tool_settled"}
	want, err := contract.EncodeRecord(rec)
	if err != nil {
		t.Fatal(err)
	}
	got, err := contract.AppendRecord([]byte(`{"record":`), rec)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(`{"record":`+string(want), string(got)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	b, err := contract.AppendRecord([]byte("prefix"), contract.Record{Step: 4})
	if err == nil || string(b) != "prefix" {
		t.Errorf("a record without a signal: %q, %v; want the buffer as it was and an error", b, err)
	}
}
