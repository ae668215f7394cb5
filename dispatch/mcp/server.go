package mcp

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/dispatch"
)

// ErrBadServer is wrapped by every error about a Server that cannot be
// connected as it stands.
var ErrBadServer = errors.New("mcp: bad server")

// DefaultListTimeout bounds listing a server's tools when
// Server.ListTimeout is zero.
const DefaultListTimeout = 10 * time.Second

// Server says how to reach one MCP server and how its tools join the tool
// box. Exactly one of Command and URL is set.
type Server struct {
	// Name names the server in errors and log lines.
	Name string
	// Command is the program and its arguments of a server spoken to over
	// stdio; the process lives until the Source is closed.
	Command []string
	// Env holds NAME=VALUE entries the command gets besides the host's
	// safe variables (on POSIX HOME, LOGNAME, PATH, SHELL, TERM and USER,
	// as the host has them at each start of the command, a value
	// starting with "()" left out; on Windows APPDATA, PATH, SYSTEMROOT,
	// TEMP, USERPROFILE and the like); an entry of a name those have
	// wins. The rest of the host's environment, where its model keys,
	// database passwords and tokens live, is not handed to a server
	// unless InheritEnv says so.
	Env []string
	// InheritEnv gives the command the host's whole environment, as it
	// is at each start, instead of its safe variables; Env's entries are
	// still put over it.
	InheritEnv bool
	// Dir is the command's working folder; empty is the host's.
	Dir string
	// Stderr receives the command's standard error; nil discards it. Its
	// end is kept either way, to say why a server that exits failed.
	Stderr io.Writer
	// URL is the endpoint of a server spoken to over streamable HTTP.
	URL string
	// Header is sent with every HTTP request to the URL's host or a
	// subdomain of it, for credentials; a redirect to another host gets
	// none of it.
	Header http.Header
	// HTTPClient makes the HTTP requests; nil is http.DefaultClient.
	HTTPClient *http.Client
	// Prefix is put before each tool's name, so that two servers' tools
	// (or a server's and the host's) cannot collide.
	Prefix string
	// Timeout bounds each call of the server's tools; zero leaves the
	// scheduler's default.
	Timeout time.Duration
	// NeedsApproval makes every call of the server's tools wait for an
	// approval.
	NeedsApproval bool
	// ListTimeout bounds listing the tools; zero is DefaultListTimeout.
	ListTimeout time.Duration
	// MaxRestarts bounds how many times a command that exited is started
	// again, or a server over HTTP whose session ended (it forgot the
	// session, as a restarted server does, or the connection broke for
	// good) is connected again with a new session, within RestartWindow;
	// zero is DefaultMaxRestarts, and a negative count never does either.
	MaxRestarts int
	// RestartWindow is the span MaxRestarts counts in; zero is
	// DefaultRestartWindow.
	RestartWindow time.Duration
	// CheckTool, when set, is asked about each tool the server lists, as
	// its descriptor would join the tool box (before names that come out
	// alike are told apart); a tool it refuses is left out with a warning
	// naming the server, the tool and the error, and the others are
	// offered. A host checks there what its model cannot be sent, such as
	// an input schema turn.ToolSchema refuses, which would otherwise fail
	// every run that offers the tool. It may be called from several
	// goroutines at once.
	CheckTool func(contract.ToolDescriptor) error
	// OnToolsChanged, when set, is called with the server's tools as
	// listed again after the server said its tool list changed
	// (notifications/tools/list_changed), so that a host can give them to
	// runs already in flight (conductor.Agent.SetRunTools) and not only to
	// its next run. It is called on a goroutine of the Source's, one call
	// at a time, with a context that ends when the Source is closed, and
	// never after Close returns; it must not call Close. A listing that
	// fails is logged and not reported. A call of the server's tools
	// during which the Source learned of a change returns once the new
	// list was reported and OnToolsChanged returned (or ListTimeout
	// passed), so the result of a call that changed the list reaches a
	// run after the new list did.
	OnToolsChanged func(ctx context.Context, tools []dispatch.Tool)
	// Logger receives a line when the server dies, a call fails, a
	// listing fails or a tool is left out (by CheckTool or by the SDK,
	// which refuses some tools itself), and the SDK's own lines, each
	// with the server's name; nil discards.
	Logger *slog.Logger
}

func (s Server) check() error {
	switch {
	case s.Name == "":
		return fmt.Errorf("%w: no name", ErrBadServer)
	case len(s.Command) > 0 && s.URL != "":
		return fmt.Errorf("%w %q: both a command and a URL", ErrBadServer, s.Name)
	case len(s.Command) == 0 && s.URL == "":
		return fmt.Errorf("%w %q: neither a command nor a URL", ErrBadServer, s.Name)
	case len(s.Command) > 0 && s.Command[0] == "":
		return fmt.Errorf("%w %q: empty command", ErrBadServer, s.Name)
	case s.Timeout < 0 || s.ListTimeout < 0:
		return fmt.Errorf("%w %q: negative timeout", ErrBadServer, s.Name)
	case s.RestartWindow < 0:
		return fmt.Errorf("%w %q: negative restart window", ErrBadServer, s.Name)
	}
	if s.URL != "" {
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf("%w %q: URL %q is not an http or https URL", ErrBadServer, s.Name, s.URL)
		}
	}
	return nil
}

// ParseServer reads the command-line form of a server: NAME=URL for an
// http or https URL, else NAME=COMMAND ARGS, the command split on spaces
// (double or single quotes keep spaces in an argument). Tools are
// prefixed NAME_.
func ParseServer(spec string) (Server, error) {
	name, rest, ok := strings.Cut(spec, "=")
	name, rest = strings.TrimSpace(name), strings.TrimSpace(rest)
	if !ok || name == "" || rest == "" {
		return Server{}, fmt.Errorf("%w: %q is not NAME=COMMAND ARGS or NAME=URL", ErrBadServer, spec)
	}
	s := Server{Name: name, Prefix: name + "_"}
	if strings.HasPrefix(rest, "http://") || strings.HasPrefix(rest, "https://") {
		s.URL = rest
	} else {
		argv, err := splitArgs(rest)
		if err != nil {
			return Server{}, fmt.Errorf("%w %q: %w", ErrBadServer, name, err)
		}
		s.Command = argv
	}
	if err := s.check(); err != nil {
		return Server{}, err
	}
	return s, nil
}

// splitArgs splits a command line on spaces, keeping quoted spaces.
func splitArgs(line string) ([]string, error) {
	var args []string
	var cur strings.Builder
	var quote rune
	inArg := false
	for _, r := range line {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inArg = r, true
		case r == ' ' || r == '\t':
			if inArg {
				args = append(args, cur.String())
				cur.Reset()
				inArg = false
			}
		default:
			cur.WriteRune(r)
			inArg = true
		}
	}
	if quote != 0 {
		return nil, errors.New("unclosed quote")
	}
	if inArg {
		args = append(args, cur.String())
	}
	return args, nil
}
