package store_test

import (
	"bufio"
	"context"
	"errors"
	"fmt"
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
	"github.com/batonrt/baton/store/storetest"
	"github.com/google/go-cmp/cmp"
)

const (
	contendChildEnv = "BATON_STORE_CONTEND_CHILD"
	contendTarget   = 120
)

var contendSessions = []string{"shared-1", "shared-2"}

// contendRecord is the record a contending writer tagged tag appends at
// step: the script's, its effects naming the writer.
func contendRecord(tag string, step int) contract.Record {
	r := storetest.Script("c", step)[step-1]
	r.Effects = fmt.Sprintf("%s %d", tag, step)
	return r
}

// contendChild is a child of TestKillNineContendingWriters: without
// locking, it appends to every shared session after whatever the other
// writer appended, until each holds contendTarget records, printing
// "ack <session> <step>" after each acknowledged append. Losing a race
// (the lock held for the other's commit, the head moved, the step
// taken) is retried.
func contendChild(arg string) int {
	dir, tag, _ := strings.Cut(arg, "|")
	ctx := context.Background()
	st, err := store.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	fmt.Println("ready")
	for done := 0; done < len(contendSessions); {
		done = 0
		for _, id := range contendSessions {
			recs, err := st.Records(ctx, id)
			if err != nil && !errors.Is(err, store.ErrNotFound) {
				fmt.Fprintln(os.Stderr, err)
				return 3
			}
			if len(recs) >= contendTarget {
				done++
				continue
			}
			step := len(recs) + 1
			_, err = st.Append(ctx, id, contendRecord(tag, step))
			switch {
			case err == nil:
				fmt.Println("ack", id, step)
			case errors.Is(err, store.ErrLocked), errors.Is(err, store.ErrConflict), errors.Is(err, store.ErrInvalid):
			default:
				fmt.Fprintln(os.Stderr, err)
				return 4
			}
		}
	}
	return 0
}

// contender is a running child and what it printed.
type contender struct {
	tag    string
	cmd    *exec.Cmd
	stderr strings.Builder
	mu     sync.Mutex
	acks   []string // "<session> <step>"
	done   chan struct{}
	ended  bool // waited for
	clean  bool // finished on its own
}

func startContender(t *testing.T, dir, tag string) *contender {
	t.Helper()
	c := &contender{tag: tag, done: make(chan struct{})}
	c.cmd = exec.Command(os.Args[0], "-test.run=^$")
	c.cmd.Env = append(os.Environ(), contendChildEnv+"="+dir+"|"+tag)
	c.cmd.Stderr = &c.stderr
	pipe, err := c.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := c.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := make(chan struct{})
	go func() {
		defer close(c.done)
		once := sync.OnceFunc(func() { close(ready) })
		defer once()
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			if ack, ok := strings.CutPrefix(sc.Text(), "ack "); ok {
				c.mu.Lock()
				c.acks = append(c.acks, ack)
				c.mu.Unlock()
			} else if sc.Text() == "ready" {
				once()
			}
		}
	}()
	<-ready
	return c
}

// wait waits for the child's end, after killing it when kill is set, and
// returns whether it finished on its own.
func (c *contender) wait(t *testing.T, kill bool) bool {
	t.Helper()
	if c.ended {
		return c.clean
	}
	if kill {
		_ = c.cmd.Process.Kill()
	}
	<-c.done
	err := c.cmd.Wait()
	if err != nil && !kill {
		t.Fatalf("writer %s failed: %v\n%s", c.tag, err, c.stderr.String())
	}
	c.ended, c.clean = true, err == nil
	return c.clean
}

// checkContended checks what two writers left: Verify passes, each
// session is a chain of steps 1..n written by the writers, and every
// acknowledged append is the record at its step.
func checkContended(ctx context.Context, st store.Store, acked map[string]string) error {
	if err := st.Verify(ctx); err != nil {
		return err
	}
	for _, id := range contendSessions {
		recs, err := st.Records(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			return err
		}
		for i, r := range recs {
			tag, step, ok := strings.Cut(r.Effects, " ")
			if !ok || step != strconv.Itoa(i+1) || r.Step != uint64(i+1) {
				return fmt.Errorf("%s: record %d reads %q at step %d", id, i+1, r.Effects, r.Step)
			}
			if d := cmp.Diff(contendRecord(tag, i+1), r); d != "" {
				return fmt.Errorf("%s: record %d is not the script's (-want +got):\n%s", id, i+1, d)
			}
		}
		for key, tag := range acked {
			sid, s, _ := strings.Cut(key, " ")
			if sid != id {
				continue
			}
			step, _ := strconv.Atoi(s)
			if step > len(recs) {
				return fmt.Errorf("%s: step %d acknowledged to %s, %d stored", id, step, tag, len(recs))
			}
			if got := recs[step-1].Effects; got != tag+" "+s {
				return fmt.Errorf("%s: step %d acknowledged to %s, store holds %q", id, step, tag, got)
			}
		}
	}
	return nil
}

// TestKillNineContendingWriters runs two child processes appending to the
// same sessions without holding their locks, kills one of them with
// SIGKILL at random moments and starts another in its place, while this
// process keeps a store open on the folder and reads it: every read and
// the folder after each kill hold only the writers' records in order,
// every acknowledged append among them, and the writers left finish.
func TestKillNineContendingWriters(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns processes; run without -short")
	}
	ctx := t.Context()
	dir := t.TempDir()
	reader := must(store.Open(dir))
	defer reader.Close()
	rng := rand.New(rand.NewPCG(3, 4))
	acked := map[string]string{} // "<session> <step>" → writer's tag
	collect := func(c *contender) {
		c.mu.Lock()
		defer c.mu.Unlock()
		for _, a := range c.acks {
			if prev, ok := acked[a]; ok && prev != c.tag {
				t.Fatalf("%s acknowledged to both %s and %s", a, prev, c.tag)
			}
			acked[a] = c.tag
		}
	}
	gen := 0
	start := func() *contender {
		gen++
		return startContender(t, dir, "w"+strconv.Itoa(gen))
	}
	writers := []*contender{start(), start()}
	kills := 0
	for ; kills < 30; kills++ {
		time.Sleep(time.Duration(rng.IntN(6000)) * time.Microsecond)
		if err := checkContended(ctx, reader, nil); err != nil {
			t.Fatalf("reading beside the writers: %v", err)
		}
		i := rng.IntN(2)
		finished := writers[i].wait(t, true)
		collect(writers[i])
		if finished {
			break
		}
		if err := checkContended(ctx, reader, acked); err != nil {
			t.Fatalf("after kill %d: %v", kills+1, err)
		}
		writers[i] = start()
	}
	for _, w := range writers {
		w.wait(t, false)
		collect(w)
	}
	again := must(store.Open(dir))
	defer again.Close()
	if err := checkContended(ctx, again, acked); err != nil {
		t.Fatal(err)
	}
	for _, id := range contendSessions {
		if n := len(must(again.Records(ctx, id))); n != contendTarget {
			t.Errorf("%s holds %d records, want %d", id, n, contendTarget)
		}
	}
	t.Logf("%d kills, %d appends acknowledged", kills, len(acked))
}
