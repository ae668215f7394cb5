package store_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/store"
)

const killChildEnv = "BATON_STORE_KILL_CHILD_DIR"

func killWorkload() workload { return newWorkload(3, 150) }

// killChild is the child process of TestKillNine: it locks every session,
// resumes each where the store left it and finishes the script, printing
// "ack <session> <records>" after each acknowledged append and "ran
// <call>" when it runs a tool (just before its outcome is appended).
func killChild(dir string) int {
	ctx := context.Background()
	st, err := store.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	w := killWorkload()
	have := map[string]int{}
	for _, id := range w.sessions {
		if _, err := st.Lock(ctx, id); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		recs, err := st.Records(ctx, id)
		if err != nil && !errIsNotFound(err) {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
		have[id] = len(recs)
	}
	fmt.Println("ready")
	for _, b := range w.batches {
		from := max(b.from, have[b.session])
		if from >= b.from+b.n {
			continue
		}
		recs := w.recs[b.session][from : b.from+b.n]
		for _, r := range recs {
			if s, ok := r.Signal.(contract.ToolSettled); ok {
				fmt.Println("ran", s.CallID)
			}
		}
		if _, err := st.Append(ctx, b.session, recs...); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 5
		}
		have[b.session] = b.from + b.n
		fmt.Println("ack", b.session, have[b.session])
	}
	return 0
}

// TestKillNine runs the script in a child process on a real folder and
// kills it with SIGKILL at random moments, checking the store after each
// kill; when a child finishes the script, the folder is checked whole and
// the next round starts on a new one, until 50 kills. Rounds, not a clock,
// bound it, so a fast disk only means more rounds.
func TestKillNine(t *testing.T) {
	// Under CI every test runs, -short or not.
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns processes; run without -short")
	}
	ctx := t.Context()
	w := killWorkload()
	want, err := w.heads(ctx)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	kills, twice, calls := 0, 0, 0
	for round := 0; kills < 50; round++ {
		if round == 20 {
			t.Fatalf("only %d kills in %d rounds: the children finish before they are killed", kills, round)
		}
		k, tw, n := killRound(t, w, want, rng, 50-kills)
		kills, twice, calls = kills+k, twice+tw, calls+n
	}
	t.Logf("%d kills; %d of %d tool calls ran twice (killed after running, before the outcome was durable)", kills, twice, calls)
}

// killRound kills children on a new folder, at most max times, checking
// the store after each kill, then lets a last child finish the script and
// checks the whole folder. It returns the kills, the tool calls that ran
// twice and the calls that ran.
func killRound(t *testing.T, w workload, want map[string]store.Hash, rng *rand.Rand, max int) (kills, twice, calls int) {
	t.Helper()
	ctx := t.Context()
	dir := t.TempDir()
	ran := map[string]int{}
	for kills < max {
		out, killed := runChild(t, dir, time.Duration(rng.IntN(8000))*time.Microsecond)
		tally(out, ran)
		if !killed {
			break
		}
		kills++
		st, err := store.Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := checkPrefix(ctx, st, w, ackedOf(out)); err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
	}
	out, killed := runChild(t, dir, -1)
	tally(out, ran)
	if killed {
		t.Fatal("final child was killed")
	}
	st, err := store.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.check(ctx, st, map[string]int{}, want); err != nil {
		t.Fatal(err)
	}
	for _, n := range ran {
		if n > 1 {
			twice++
		}
	}
	return kills, twice, len(ran)
}

// runChild starts a child and, when delay is not negative, kills it that
// long after it reports ready. It returns the child's output lines.
func runChild(t *testing.T, dir string, delay time.Duration) ([]string, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+dir)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	pipe, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var (
		mu    sync.Mutex
		lines []string
		ready = make(chan struct{})
		done  = make(chan struct{})
	)
	go func() {
		defer close(done)
		sc := bufio.NewScanner(pipe)
		once := sync.OnceFunc(func() { close(ready) })
		defer once()
		for sc.Scan() {
			mu.Lock()
			lines = append(lines, sc.Text())
			mu.Unlock()
			if sc.Text() == "ready" {
				once()
			}
		}
		_, _ = io.Copy(io.Discard, pipe)
	}()
	<-ready
	killed := false
	if delay >= 0 {
		time.Sleep(delay)
		killed = cmd.Process.Kill() == nil
	}
	<-done
	err = cmd.Wait()
	if err == nil {
		killed = false
	} else if !killed {
		t.Fatalf("child failed: %v\n%s", err, stderr.String())
	}
	return lines, killed
}

func tally(out []string, ran map[string]int) {
	for _, l := range out {
		if call, ok := strings.CutPrefix(l, "ran "); ok {
			ran[call]++
		}
	}
}

func ackedOf(out []string) map[string]int {
	acked := map[string]int{}
	for _, l := range out {
		f := strings.Fields(l)
		if len(f) == 3 && f[0] == "ack" {
			n, _ := strconv.Atoi(f[2])
			acked[f[1]] = max(acked[f[1]], n)
		}
	}
	return acked
}

// checkPrefix checks the store against the script without finishing it:
// Verify passes, the locks are free, and each session holds a prefix of
// its script at least as long as was acknowledged.
func checkPrefix(ctx context.Context, st store.Store, w workload, acked map[string]int) error {
	if err := st.Verify(ctx); err != nil {
		return err
	}
	for _, id := range w.sessions {
		release, err := st.Lock(ctx, id)
		if err != nil {
			return fmt.Errorf("lock of the dead child not recovered: %w", err)
		}
		if err := release(); err != nil {
			return err
		}
		recs, err := st.Records(ctx, id)
		if err != nil && !(acked[id] == 0 && errIsNotFound(err)) {
			return err
		}
		if len(recs) < acked[id] {
			return fmt.Errorf("%s: %d acknowledged, %d stored", id, acked[id], len(recs))
		}
		for i, r := range recs {
			if r.Effects != w.recs[id][i].Effects {
				return fmt.Errorf("%s: record %d is not the script's", id, i)
			}
		}
	}
	return nil
}
