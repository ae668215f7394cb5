package postgres

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
	"testing"
	"time"

	"github.com/batonrt/baton/store"
	"github.com/batonrt/baton/store/postgres/pgtest"
	"github.com/batonrt/baton/store/storetest"
)

const killChildEnv = "BATON_PG_KILL_CHILD_URL"

var killSessions = []string{"k0", "k1", "k2"}

const killRecords = 40

// killChild owns every session (waiting, bounded, for a dead owner's
// locks to be freed), and appends the rest of each session's script one
// record at a time, printing "ack <session> <records>" after each.
func killChild(url string) int {
	ctx := context.Background()
	st, err := Open(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 2
	}
	defer st.Close()
	have := map[string]int{}
	for _, id := range killSessions {
		if err := lockWithin(ctx, st, id, 10*time.Second); err != nil {
			fmt.Fprintln(os.Stderr, err)
			return 3
		}
		recs, err := st.Records(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			fmt.Fprintln(os.Stderr, err)
			return 4
		}
		have[id] = len(recs)
	}
	fmt.Println("ready")
	for i := range killRecords {
		for _, id := range killSessions {
			if have[id] > i {
				continue
			}
			if _, err := st.Append(ctx, id, storetest.Script(id, killRecords)[i]); err != nil {
				fmt.Fprintln(os.Stderr, err)
				return 5
			}
			have[id] = i + 1
			fmt.Println("ack", id, i+1)
		}
	}
	return 0
}

func lockWithin(ctx context.Context, st store.Store, id string, d time.Duration) error {
	deadline := time.Now().Add(d)
	for {
		_, err := st.Lock(ctx, id)
		if !errors.Is(err, store.ErrLocked) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestKillNineFailover runs the owner in a child process, kills it with
// SIGKILL at random moments, and starts the next owner at once: it gets
// the locks (the dead owner's connection took them with it), every
// acknowledged record is there, the store verifies after every kill, and
// the last owner finishes every session to the uninterrupted heads.
func TestKillNineFailover(t *testing.T) {
	// Under CI every test runs, -short or not.
	if testing.Short() && os.Getenv("CI") == "" {
		t.Skip("spawns processes; run without -short")
	}
	ctx := t.Context()
	url := pgtest.SchemaURL(t)
	want := store.NewMemory()
	for _, id := range killSessions {
		if _, err := want.Append(ctx, id, storetest.Script(id, killRecords)...); err != nil {
			t.Fatal(err)
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	kills := 0
	for kills < 8 {
		// Killed after a random number of acknowledgements rather than a
		// random time: on a fast machine an owner can finish every
		// session before a timer fires.
		acked, killed := runOwner(t, url, 1+rng.IntN(len(killSessions)*killRecords/4))
		if !killed {
			break
		}
		kills++
		st, err := Open(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		if err := st.Verify(ctx); err != nil {
			t.Fatalf("after kill %d: %v", kills, err)
		}
		for id, n := range acked {
			recs, err := st.Records(ctx, id)
			if err != nil || len(recs) < n {
				t.Fatalf("after kill %d: %s has %d records (%v), %d acknowledged", kills, id, len(recs), err, n)
			}
		}
		st.Close()
	}
	if kills < 3 {
		t.Fatalf("only %d kills: the owners finished too soon", kills)
	}
	if _, killed := runOwner(t, url, -1); killed {
		t.Fatal("last owner was killed")
	}
	st, err := Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, id := range killSessions {
		got, err := st.Head(ctx, id)
		if err != nil || got != must(want.Head(ctx, id)) {
			t.Fatalf("%s: head %s (%v), want %s", id, got, err, must(want.Head(ctx, id)))
		}
	}
	t.Logf("%d kills", kills)
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// runOwner starts an owner and, when after is not negative, kills it once
// it has acknowledged that many more records; it returns what the owner
// acknowledged.
func runOwner(t *testing.T, url string, after int) (map[string]int, bool) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), killChildEnv+"="+url)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked := map[string]int{}
	killed := false
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 || f[0] != "ack" {
			continue
		}
		n, _ := strconv.Atoi(f[2])
		acked[f[1]] = max(acked[f[1]], n)
		if after--; after == 0 {
			killed = cmd.Process.Kill() == nil
		}
	}
	if err := cmd.Wait(); err == nil {
		killed = false
	} else if !killed {
		t.Fatalf("owner failed: %v\n%s", err, stderr.String())
	}
	return acked, killed
}
