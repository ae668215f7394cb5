package cadence_test

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/batonrt/baton/cadence"
	"github.com/batonrt/baton/contract"
)

var update = flag.Bool("update", false, "rewrite the golden scripts under testdata/scripts")

// A script is a file of commands, each followed by "----", the output
// the stable printer gives for it, and a blank line, like etcd-io/raft's
// datadriven files. Commands:
//
//	config key=value...       model, tools=a,b/approval/sequential/idempotent/human,
//	                          max_turns, warn, critical, window, keep, ratio, compaction=off,
//	                          revision, failed_runs, max_messages, max_chars,
//	                          temperature, top_p, seed, stop=a,b, parallel=false, tool_choice,
//	                          output=RETRIES (an output schema "answer"),
//	                          session=ID (the session's id; s1 unless given)
//	submit RUN "text" [tools=...] [allowed=k1,k2] [retrieval_failed "why"] [instruction NAME "text"]...
//	reply [text "..."|@N] [call ID TOOL ARGS]... [keys N=k1,k2]... [usage=IN/OUT] [bad "output error"]
//	fail KIND ["message"]
//	started ID | settled ID "out" [error] | approve ID once|session | deny ID ["reason"]
//	answer ID "text"
//	delegated ID SESSION "out" [error] [usage=IN/OUT] [allowed=k1,k2]
//	shared k1,k2 (what another run of the delegation tree allowed)
//	tools [a,b/approval...] (the run's own tools as a tool source changed them; none without a list)
//	steer "text" | followup "text" | abort MODE ["reason"] | resumed
//	compacted CUT "summary" [usage=IN/OUT] | compaction_failed "reason" [usage=IN/OUT]
//	history | usage | request (the newest invoke_model's system and history) | results
type script struct {
	t       *testing.T
	rules   *cadence.Rules
	snap    contract.RunSnapshot
	records []contract.Record
	clock   contract.Timestamp
	// cells records each (phase, kind) the script fed and whether the
	// signal was accepted.
	cells map[cell]bool
	// phases keeps a snapshot seen in each phase, for the coverage test.
	phases map[contract.Phase]contract.RunSnapshot
	// request is the newest invoke_model's request.
	request contract.ModelRequest
	// session is the session's id.
	session string
}

type cell struct {
	phase contract.Phase
	kind  contract.SignalKind
}

func newScript(t *testing.T) *script {
	s := &script{t: t, cells: map[cell]bool{}, phases: map[contract.Phase]contract.RunSnapshot{}}
	s.configure(nil)
	return s
}

// configure sets the rules up, under revision 0 unless the script says
// revision=N: every revision must replay forever, so its scripts stay.
func (s *script) configure(args []string) string {
	cfg := contract.AgentConfig{Model: "scripted", Tools: []contract.ToolDescriptor{{Name: "echo"}},
		Compaction: contract.CompactionPolicy{ContextWindow: 1_000_000}}
	session := "s1"
	for _, a := range args {
		k, v, _ := strings.Cut(a, "=")
		n, _ := strconv.Atoi(v)
		switch k {
		case "model":
			cfg.Model = v
		case "tools":
			cfg.Tools = parseTools(v)
		case "max_turns":
			cfg.MaxTurns = n
		case "warn":
			cfg.LoopGuard.Warn = n
		case "critical":
			cfg.LoopGuard.Critical = n
		case "window":
			cfg.Compaction.ContextWindow = n
		case "keep":
			cfg.Compaction.KeepRecent = n
		case "ratio":
			cfg.Compaction.TriggerRatio, _ = strconv.ParseFloat(v, 64)
		case "compaction":
			cfg.Compaction.Disabled = v == "off"
		case "delegates":
			for _, name := range strings.Split(v, ",") {
				cfg.Delegates = append(cfg.Delegates, contract.Delegate{Name: name, Config: contract.AgentConfig{Model: "scripted-" + name, System: "you are " + name}})
			}
		case "depth":
			cfg.Depth = n
		case "max_depth":
			cfg.MaxDelegationDepth = n
		case "revision":
			cfg.Revision = n
		case "failed_runs":
			cfg.FailedRuns = contract.FailedRunsPolicy(v)
		case "max_messages":
			cfg.Compaction.MaxMessages = n
		case "max_chars":
			cfg.Compaction.MaxChars = n
		case "temperature", "top_p":
			f, _ := strconv.ParseFloat(v, 64)
			if k == "temperature" {
				cfg.Sampling.Temperature = &f
			} else {
				cfg.Sampling.TopP = &f
			}
		case "seed":
			seed := int64(n)
			cfg.Sampling.Seed = &seed
		case "stop":
			cfg.Sampling.Stop = strings.Split(v, ",")
		case "parallel":
			parallel := v == "true"
			cfg.Sampling.ParallelToolCalls = &parallel
		case "tool_choice":
			cfg.Sampling.ToolChoice = contract.ToolChoice(v)
		case "concurrency":
			cfg.ToolConcurrency = n
		case "output":
			cfg.Output = &contract.OutputSchema{Name: "answer", Schema: []byte(`{"type":"object"}`), MaxRetries: n}
		case "session":
			session = v
		default:
			s.t.Fatalf("config: unknown key %q", k)
		}
	}
	if err := cfg.Validate(); err != nil {
		s.t.Fatalf("config: %v", err)
	}
	if s.rules != nil && len(s.records) > 0 {
		// A new config starts a new session: the old one must replay first.
		s.checkReplay()
	}
	s.rules = cadence.New(cfg)
	s.session = session
	s.snap = cadence.InitialSnapshot(session)
	s.records = nil
	return "ok"
}

func parseTools(v string) []contract.ToolDescriptor {
	var out []contract.ToolDescriptor
	for _, spec := range strings.Split(v, ",") {
		parts := strings.Split(spec, "/")
		d := contract.ToolDescriptor{Name: parts[0]}
		for _, f := range parts[1:] {
			switch f {
			case "approval":
				d.NeedsApproval = true
			case "sequential":
				d.Sequential = true
			case "idempotent":
				d.Idempotent = true
			case "human":
				d.AsksHuman = true
			}
		}
		out = append(out, d)
	}
	return out
}

// tokenize splits a command line into words; a word starting with a
// double quote is a Go string literal.
func tokenize(line string) ([]string, error) {
	var out []string
	for line = strings.TrimSpace(line); line != ""; line = strings.TrimSpace(line) {
		if line[0] == '"' {
			lit, err := strconv.QuotedPrefix(line)
			if err != nil {
				return nil, err
			}
			word, _ := strconv.Unquote(lit)
			out = append(out, word)
			line = line[len(lit):]
			continue
		}
		end := strings.IndexAny(line, " \t")
		if end < 0 {
			end = len(line)
		}
		out = append(out, line[:end])
		line = line[end:]
	}
	return out, nil
}

// arg returns the i-th word; "@N" stands for N bytes of filler text, so
// scripts can make turns big enough to trigger compaction.
func arg(words []string, i int) string {
	if i >= len(words) {
		return ""
	}
	if n, err := strconv.Atoi(strings.TrimPrefix(words[i], "@")); err == nil && strings.HasPrefix(words[i], "@") {
		return strings.Repeat("lorem ", n/6+1)[:n]
	}
	return words[i]
}

// signal builds the signal a command names, or returns nil for commands
// that only print.
func (s *script) signal(words []string) (contract.Signal, error) {
	s.clock += 1000
	at := s.clock
	a := func(i int) string { return arg(words, i) }
	switch words[0] {
	case "submit":
		sub := contract.Submitted{RunID: a(1), Input: []contract.Turn{contract.UserText(a(2))}, At: at}
		for i := 3; i < len(words); i++ {
			if t, ok := strings.CutPrefix(a(i), "tools="); ok {
				sub.Tools = parseTools(t)
			}
			if keys, ok := strings.CutPrefix(a(i), "allowed="); ok {
				sub.Allowed = strings.Split(keys, ",")
			}
			switch a(i) {
			case "retrieval_failed":
				sub.RetrievalError = a(i + 1)
				i++
			case "instruction":
				sub.Instructions = append(sub.Instructions, contract.Instruction{Name: a(i + 1), Hash: "h" + strconv.Itoa(i), Text: a(i + 2)})
				i += 2
			}
		}
		return sub, nil
	case "reply":
		return parseReply(words[1:], at)
	case "fail":
		return contract.ModelFailed{Failure: contract.FailureKind(a(1)), Message: a(2), At: at}, nil
	case "started":
		return contract.ToolStarted{CallID: a(1), At: at}, nil
	case "settled":
		return contract.ToolSettled{CallID: a(1), Outcome: contract.ToolOutcome{Content: a(2), IsError: a(3) == "error"}, At: at}, nil
	case "approve":
		return contract.ApprovalResolved{CallID: a(1), Approved: true, Scope: contract.ApprovalScope(a(2)), At: at}, nil
	case "deny":
		return contract.ApprovalResolved{CallID: a(1), Reason: a(2), At: at}, nil
	case "answer":
		return contract.HumanAnswered{CallID: a(1), Answer: a(2), At: at}, nil
	case "steer":
		return contract.Steered{Input: []contract.Turn{contract.UserText(a(1))}, At: at}, nil
	case "followup":
		return contract.FollowUpQueued{Input: []contract.Turn{contract.UserText(a(1))}, At: at}, nil
	case "abort":
		return contract.AbortRequested{Mode: contract.AbortMode(a(1)), Reason: a(2), At: at}, nil
	case "resumed":
		rev := 0
		if v, ok := strings.CutPrefix(a(1), "revision="); ok {
			rev, _ = strconv.Atoi(v)
		}
		return contract.Resumed{Revision: rev, At: at}, nil
	case "compacted":
		cut, err := strconv.Atoi(a(1))
		return contract.Compacted{Cut: cut, Summary: a(2), Usage: usageWord(a(3)), At: at}, err
	case "compaction_failed":
		return contract.CompactionFailed{Reason: a(1), Usage: usageWord(a(2)), At: at}, nil
	case "shared":
		return contract.AllowanceShared{Keys: strings.Split(a(1), ","), At: at}, nil
	case "tools":
		changed := contract.ToolsChanged{Tools: []contract.ToolDescriptor{}, At: at}
		if a(1) != "" {
			changed.Tools = parseTools(a(1))
		}
		return changed, nil
	case "delegated":
		d := contract.DelegateSettled{CallID: a(1), Session: a(2), Outcome: contract.ToolOutcome{Content: a(3), IsError: a(4) == "error"}, At: at}
		for i := 4; i < len(words); i++ {
			if strings.HasPrefix(a(i), "usage=") {
				d.Usage = usageWord(a(i))
				d.Usage.ModelCalls = 1
			}
			if keys, ok := strings.CutPrefix(a(i), "allowed="); ok {
				d.Allowed = strings.Split(keys, ",")
			}
		}
		return d, nil
	}
	return nil, fmt.Errorf("unknown command %q", words[0])
}

func parseReply(words []string, at contract.Timestamp) (contract.Signal, error) {
	r := contract.ModelReplied{Reply: contract.Turn{Role: contract.RoleAssistant}, At: at}
	for i := 0; i < len(words); i++ {
		switch w := words[i]; {
		case w == "text" && i+1 < len(words):
			r.Reply.Blocks = append(r.Reply.Blocks, contract.TextBlock(arg(words, i+1)))
			i++
		case w == "call" && i+3 < len(words):
			r.Reply.Blocks = append(r.Reply.Blocks, contract.CallBlock(contract.ToolCall{ID: words[i+1], Name: words[i+2], Arguments: words[i+3]}))
			i += 3
		case strings.HasPrefix(w, "usage="):
			r.Usage = usageWord(w)
		case w == "keys" && i+1 < len(words):
			n, list, _ := strings.Cut(words[i+1], "=")
			idx, err := strconv.Atoi(n)
			if err != nil {
				return nil, fmt.Errorf("reply: keys %q: %v", words[i+1], err)
			}
			r.Keys = append(r.Keys, contract.CallKeys{Call: idx, Keys: strings.Split(list, ",")})
			i++
		case w == "bad" && i+1 < len(words):
			r.OutputError = words[i+1]
			i++
		case w == "role" && i+1 < len(words):
			r.Reply.Role = contract.Role(words[i+1])
			i++
		default:
			return nil, fmt.Errorf("reply: cannot parse %q", w)
		}
	}
	return r, nil
}

// run executes one command and returns its printed output.
func (s *script) run(line string) string {
	words, err := tokenize(line)
	if err != nil || len(words) == 0 {
		s.t.Fatalf("bad command %q: %v", line, err)
	}
	switch words[0] {
	case "config":
		return s.configure(words[1:])
	case "history":
		return printHistory(s.snap.History)
	case "request":
		return printRequest(s.request)
	case "results":
		return printResults(s.snap)
	case "usage":
		return "run " + printUsage(s.snap.RunUsage) + "\nsession " + printUsage(s.snap.SessionUsage)
	}
	sig, err := s.signal(words)
	if err != nil {
		s.t.Fatalf("%q: %v", line, err)
	}
	before, _ := contract.EncodeSnapshot(s.snap)
	phase := s.snap.Phase
	next, effects, err := s.rules.Step(s.snap, sig)
	var b strings.Builder
	committed := err == nil
	s.cells[cell{phase, sig.SignalKind()}] = s.cells[cell{phase, sig.SignalKind()}] || committed
	if !committed {
		after, _ := contract.EncodeSnapshot(next)
		if !bytes.Equal(before, after) || len(effects) != 0 {
			s.t.Errorf("%q: a rejected signal changed the snapshot or had effects", line)
		}
		b.WriteString(printRejection(err) + "\n")
	} else {
		s.records = append(s.records, effects[0].(*contract.Persist).Record)
	}
	for _, e := range effects {
		b.WriteString(printEffect(e) + "\n")
		if im, ok := e.(*contract.InvokeModel); ok {
			s.request = im.Request
		}
	}
	s.snap = next
	if _, seen := s.phases[next.Phase]; !seen {
		s.phases[next.Phase] = next
	}
	b.WriteString(printSnapshot(next))
	return b.String()
}

// checkReplay folds the script's records, stored and read back, and
// compares the snapshot bytes.
func (s *script) checkReplay() {
	var stored []contract.Record
	for _, r := range s.records {
		b, err := contract.EncodeRecord(r)
		if err != nil {
			s.t.Fatal(err)
		}
		back, err := contract.DecodeRecord(b)
		if err != nil {
			s.t.Fatal(err)
		}
		stored = append(stored, back)
	}
	got, err := s.rules.Replay(cadence.InitialSnapshot(s.session), stored)
	if err != nil {
		s.t.Fatalf("replay: %v", err)
	}
	want, _ := contract.EncodeSnapshot(s.snap)
	have, _ := contract.EncodeSnapshot(got)
	if !bytes.Equal(want, have) {
		s.t.Errorf("replay gives a different snapshot:\nlive   %s\nreplay %s", want, have)
	}
}

// runFile plays one script and returns its text with fresh output.
func runFile(t *testing.T, path string, sc *script) string {
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out strings.Builder
	lines := strings.Split(string(raw), "\n")
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			out.WriteString(line + "\n")
			continue
		}
		out.WriteString(line + "\n----\n" + strings.TrimRight(sc.run(line), "\n") + "\n\n")
		// Skip the old output: "----" up to and with the blank line
		// ending it.
		if i+1 < len(lines) && lines[i+1] == "----" {
			for i++; i+1 < len(lines) && lines[i+1] != ""; i++ {
			}
			i++
		}
	}
	return strings.TrimRight(out.String(), "\n") + "\n"
}

func scriptFiles(t *testing.T) []string {
	files, err := filepath.Glob(filepath.Join("testdata", "scripts", "*.txt"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no scripts: %v", err)
	}
	return files
}

// TestScripts plays every golden script. With -update it rewrites their
// output; only commit that if you understand what caused the change.
func TestScripts(t *testing.T) {
	for _, path := range scriptFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			sc := newScript(t)
			got := runFile(t, path, sc)
			sc.checkReplay()
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := os.ReadFile(path)
			if got != string(want) {
				t.Errorf("%s: output changed (run with -update and review the diff):\n%s", path, got)
			}
		})
	}
}

// usageWord reads usage=IN/OUT, the tokens a call used; any other word
// is no usage.
func usageWord(w string) contract.Usage {
	var u contract.Usage
	if v, ok := strings.CutPrefix(w, "usage="); ok {
		in, out, _ := strings.Cut(v, "/")
		u.InputTokens, _ = strconv.ParseInt(in, 10, 64)
		u.OutputTokens, _ = strconv.ParseInt(out, 10, 64)
	}
	return u
}
