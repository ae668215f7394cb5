package mcp

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// maxFrame bounds one message read from a command. The SDK's default of
// 16 MiB is less than a big file or image read can give, and a message
// over the bound ends the whole connection, not only its call; what a
// call returns is cut to the scheduler's output cap afterwards.
const maxFrame = 256 << 20

// stderrTail is how much of a command's standard error is kept to say
// why it failed.
const stderrTail = 2048

// commandTransport starts a server's command and speaks to it over its
// stdin and stdout, as the SDK's CommandTransport does, but it keeps the
// command's exit status and the end of its standard error, so that a
// server that fails at start or dies mid-call can be reported with its
// own last words rather than as an EOF.
type commandTransport struct {
	cmd       *exec.Cmd
	terminate time.Duration     // between closing stdin, SIGTERM and SIGKILL
	skipped   func(line string) // told each line of stdout that is no message
	tail      tailBuffer

	exited  chan struct{} // closed once the command has been waited for
	waitErr error         // the command's end; read after exited

	stopOnce sync.Once
	stdin    *os.File
	stdout   *os.File
	stopErr  error

	mu      sync.Mutex
	stopped bool // stop signalled the command: its end says nothing

	// writing is when the write to stdin under way began (UnixNano), 0
	// when none is: a server that stops reading its stdin blocks it.
	writing atomic.Int64
}

func newCommandTransport(srv Server, skipped func(line string)) *commandTransport {
	cmd := exec.Command(srv.Command[0], srv.Command[1:]...)
	cmd.Env, cmd.Dir = commandEnv(srv), srv.Dir
	ownGroup(cmd)
	t := &commandTransport{cmd: cmd, terminate: 2 * time.Second, skipped: skipped, exited: make(chan struct{})}
	cmd.Stderr = &t.tail
	if srv.Stderr != nil {
		cmd.Stderr = io.MultiWriter(srv.Stderr, &t.tail)
	}
	// A descendant that keeps the standard error open must not keep Wait
	// from returning once the command itself has ended.
	cmd.WaitDelay = time.Second
	return t
}

// Connect starts the command. Its pipes are plain files, so the command
// can be waited for as soon as it ends without losing what it wrote.
func (t *commandTransport) Connect(ctx context.Context) (sdk.Connection, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("mcp: stdin pipe: %w", err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, fmt.Errorf("mcp: stdout pipe: %w", err)
	}
	t.cmd.Stdin, t.cmd.Stdout = inR, outW
	err = t.cmd.Start()
	inR.Close()
	outW.Close()
	if err != nil {
		inW.Close()
		outR.Close()
		return nil, err
	}
	t.stdin, t.stdout = inW, outR
	go func() {
		t.waitErr = t.cmd.Wait()
		close(t.exited)
	}()
	stdout := io.NopCloser(newMessageLines(outR, t.skipped))
	return (&sdk.IOTransport{Reader: stdout, Writer: stopper{t}, MaxLineLength: maxFrame}).Connect(ctx)
}

// stopper is the connection's writing end: closing it stops the command.
type stopper struct{ t *commandTransport }

func (s stopper) Write(p []byte) (int, error) {
	s.t.writing.Store(time.Now().UnixNano())
	defer s.t.writing.Store(0)
	return s.t.stdin.Write(p)
}
func (s stopper) Close() error { return s.t.stop() }

// stop ends the command as the MCP specification asks: close its stdin,
// then SIGTERM if it lingers, then SIGKILL. It is safe to call more than
// once and before Connect.
func (t *commandTransport) stop() error {
	t.stopOnce.Do(func() {
		if t.stdin == nil {
			return
		}
		t.stdin.Close()
		if !t.waitFor() {
			t.mu.Lock()
			t.stopped = true
			t.mu.Unlock()
			if err := t.cmd.Process.Signal(syscall.SIGTERM); err != nil || !t.waitFor() {
				t.cmd.Process.Kill()
				<-t.exited
			}
		}
		// The command has ended; what it started must not outlive it.
		endGroup(t.cmd)
		t.stdout.Close()
		t.stopErr = t.waitErr
	})
	return t.stopErr
}

// writeGrace is how long a write to stdin may be under way, once a
// call's context has ended, before the command is taken for one that
// stopped reading: a server that reads takes microseconds.
const writeGrace = 100 * time.Millisecond

// unblock, run once a call's context has ended, stops the command when a
// write to its stdin has been under way for writeGrace before the call
// returns (done): the write blocks for as long as the server does not
// read, and with it the call that made it, every call after it, and the
// connection's Close. The SDK may begin the call's write after its
// context ended, so unblock watches until the call returns. Closing
// stdin ends the write; half a message on the pipe leaves the connection
// of no further use, so the command is stopped, and the next call starts
// it again.
func (t *commandTransport) unblock(done <-chan struct{}) {
	tick := time.NewTicker(writeGrace / 4)
	defer tick.Stop()
	for {
		select {
		case <-done:
			return
		case <-tick.C:
		}
		if began := t.writing.Load(); began != 0 && time.Since(time.Unix(0, began)) >= writeGrace {
			t.stop()
			return
		}
	}
}

func (t *commandTransport) waitFor() bool {
	timer := time.NewTimer(t.terminate)
	defer timer.Stop()
	select {
	case <-t.exited:
		return true
	case <-timer.C:
		return false
	}
}

// ended says which command ended on its own and how, with the end of
// its standard error, or "" while it runs or when stop had to signal it.
func (t *commandTransport) ended() string {
	select {
	case <-t.exited:
	default:
		return ""
	}
	t.mu.Lock()
	stopped := t.stopped
	t.mu.Unlock()
	if stopped {
		return ""
	}
	// The program only: its arguments may hold credentials.
	status := "exit status 0"
	if t.waitErr != nil {
		status = t.waitErr.Error()
	}
	why := fmt.Sprintf("the command %q ended: %s", t.cmd.Args[0], status)
	if s := strings.TrimSpace(t.tail.String()); s != "" {
		why += "; its stderr ends: " + s
	}
	return why
}

// tailBuffer keeps the last stderrTail bytes written to it.
type tailBuffer struct {
	mu  sync.Mutex
	buf []byte
}

func (b *tailBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf = append(b.buf, p...)
	if over := len(b.buf) - stderrTail; over > 0 {
		b.buf = append(b.buf[:0], b.buf[over:]...)
	}
	return len(p), nil
}

func (b *tailBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return string(b.buf)
}
