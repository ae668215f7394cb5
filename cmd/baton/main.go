package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"slices"
	"strings"

	"github.com/batonrt/baton/conductor/tracing"
)

// Exit codes.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
	// exitStopped is a run the user stopped with Ctrl-C: 128+SIGINT, as
	// shells report it.
	exitStopped = 130
)

// exitError ends a command with its code; msg, when set, is printed. A
// run's failure the printer already showed has no msg, so it is not
// printed twice.
type exitError struct {
	code int
	msg  string
}

func (e *exitError) Error() string { return e.msg }

func main() {
	interrupts := make(chan os.Signal, 2)
	signal.Notify(interrupts, os.Interrupt)
	a := &app{
		stdin:       os.Stdin,
		stdout:      os.Stdout,
		stderr:      os.Stderr,
		interactive: isTerminal(os.Stdin),
		tty:         isTerminal(os.Stdout),
		interrupts:  interrupts,
	}
	if a.interactive {
		a.echoOff = echoOff(os.Stdin)
	}
	os.Exit(a.main(context.Background(), os.Args[1:]))
}

// run runs the command line args with the given streams and returns the
// exit code. Tests drive every subcommand through it.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	a := &app{stdin: stdin, stdout: stdout, stderr: stderr}
	return a.main(ctx, args)
}

// app holds what a command invocation talks to.
type app struct {
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	// interactive says stdin is a terminal: approvals are asked there and
	// typed lines steer a run.
	interactive bool
	// tty says stdout is a terminal: a spinner shows while tools run.
	tty bool
	// interrupts delivers Ctrl-C; nil in tests that do not need it.
	interrupts <-chan os.Signal
	// echoOff, when set, stops the terminal echoing typed lines and
	// returns what turns the echo back on.
	echoOff func() (restore func())
	// tracer, when set, makes spans of every agent's events.
	tracer *tracing.Tracer
	// exitNow ends the process; nil means os.Exit.
	exitNow func(code int)
}

type command struct {
	name    string
	summary string
	run     func(a *app, ctx context.Context, args []string) error
	// ownsCtrlC says the command handles Ctrl-C itself (a run aborts, a
	// server shuts down); any other is stopped by it, exit 130.
	ownsCtrlC bool
}

func commands() []command {
	return []command{
		{"demo", "play a scripted session with real tools, then replay and verify it", (*app).demo, true},
		{"run", "run a prompt against a model with the built-in tools", (*app).runPrompt, true},
		{"sessions", "list the stored sessions", (*app).sessions, false},
		{"log", "print a session's transcript, or its node graph with --graph", (*app).log, false},
		{"replay", "replay a session and verify it byte for byte", (*app).replay, false},
		{"fork", "start a new session from a node of an existing one", (*app).fork, false},
		{"export", "write sessions as JSONL", (*app).export, false},
		{"import", "read sessions from JSONL", (*app).importSessions, false},
		{"serve", "serve agents over AG-UI and the AI SDK stream, with a chat page", (*app).serve, true},
	}
}

func (a *app) main(ctx context.Context, args []string) int {
	out := &outputWriter{w: a.stdout}
	a.stdout = out
	code := a.command(ctx, args)
	if err := out.failed(); err != nil && code == exitOK {
		fmt.Fprintf(a.stderr, "baton: write output: %v\n", err)
		return exitFailure
	}
	return code
}

func (a *app) command(ctx context.Context, args []string) int {
	if len(args) == 0 {
		a.usage(a.stderr)
		return exitUsage
	}
	name := args[0]
	switch name {
	case "-h", "-help", "--help", "help":
		if len(args) < 2 || slices.Contains([]string{"-h", "-help", "--help", "help"}, args[1]) {
			a.usage(a.stdout)
			return exitOK
		}
		// baton help CMD is CMD's help, as go help build is.
		name, args = args[1], []string{args[1], "--help"}
	}
	i := slices.IndexFunc(commands(), func(c command) bool { return c.name == name })
	if i < 0 && strings.HasPrefix(name, "-") {
		// Flags belong to a command: --store before it is the likely
		// slip, not a command named --store.
		fmt.Fprintf(a.stderr, "baton: flag %s before a command: give the command first, then its flags\nrun 'baton --help' for usage\n", strings.SplitN(name, "=", 2)[0])
		return exitUsage
	}
	if i < 0 {
		// One line naming the mistake, as a subcommand's usage errors
		// have, rather than the whole usage burying it.
		fmt.Fprintf(a.stderr, "baton: unknown command %q\nrun 'baton --help' for usage\n", name)
		return exitUsage
	}
	c := commands()[i]
	if c.ownsCtrlC {
		return a.exit(c.run(a, ctx, args[1:]))
	}
	// The interrupt handler installed for runs would otherwise swallow
	// Ctrl-C here, leaving a command blocked on stdin or a store with no
	// way out.
	ctx, stopped := a.stopOnInterrupt(ctx)
	err := c.run(a, ctx, args[1:])
	if stopped() {
		return exitStopped
	}
	return a.exit(err)
}

func (a *app) exit(err error) int {
	var u *usageError
	var x *exitError
	switch {
	case err == nil:
		return exitOK
	case errors.As(err, &x):
		if x.msg != "" {
			fmt.Fprintf(a.stderr, "baton: %s\n", safeText(x.msg))
		}
		return x.code
	case errors.Is(err, flag.ErrHelp):
		return exitOK
	case errors.As(err, &u):
		fmt.Fprintf(a.stderr, "baton: %s\n", u.msg)
		if u.fs != nil {
			fmt.Fprintf(a.stderr, "run 'baton %s --help' for usage\n", u.fs.Name())
		}
		return exitUsage
	}
	fmt.Fprintf(a.stderr, "baton: %s\n", safeText(errLine(strings.TrimPrefix(err.Error(), "baton: "))))
	return exitFailure
}

// errLine folds an error that spans lines (a database driver's list of
// the addresses it tried, problems joined by errors.Join) onto one line,
// so the line after "baton: " is all a script or a log needs to read.
func errLine(s string) string {
	if !strings.ContainsAny(s, "\n\r") {
		return s
	}
	var b strings.Builder
	for line := range strings.FieldsFuncSeq(s, func(r rune) bool { return r == '\n' || r == '\r' }) {
		line = strings.TrimSpace(line)
		if line == "" {
			continue
		}
		if b.Len() > 0 {
			if !strings.HasSuffix(b.String(), ":") {
				b.WriteByte(';')
			}
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	return b.String()
}

func (a *app) usage(w io.Writer) {
	fmt.Fprintln(w, "baton: an LLM agent runtime\n\nUsage: baton <command> [flags] [args]\n\nCommands:")
	for _, c := range commands() {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.summary)
	}
	fmt.Fprintln(w, "\nRun 'baton <command> --help' for a command's flags.")
}
