package builtin

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/batonrt/baton/dispatch"
)

// Defaults for Options left zero.
const (
	DefaultMaxRead      = 256 << 10
	DefaultShellTimeout = 30 * time.Second
	DefaultHTTPTimeout  = 20 * time.Second
	DefaultMaxHTTP      = 256 << 10
)

// ErrEscape is matched by every error for a path that leaves the root.
var ErrEscape = errors.New("builtin: path escapes the workspace")

// Options choose the tools and their limits.
type Options struct {
	// Root is the workspace folder every file tool is confined to.
	Root string
	// AllowShell adds the shell tool, which needs approval per call.
	AllowShell bool
	// AllowHTTP adds the http_get tool, which needs approval per call.
	AllowHTTP bool
	// MaxRead caps what read_file returns, in bytes.
	MaxRead int64
	// ShellTimeout bounds one shell command.
	ShellTimeout time.Duration
	// MaxHTTP caps an http_get body, in bytes.
	MaxHTTP int64
	// HTTPClient makes http_get requests; default one with DefaultHTTPTimeout.
	HTTPClient *http.Client
}

// Set is an opened workspace and the tools over it.
type Set struct {
	opts  Options
	root  *os.Root
	tools []dispatch.Tool
}

// Open opens the workspace folder and builds the tools.
func Open(opts Options) (*Set, error) {
	if opts.Root == "" {
		return nil, errors.New("builtin: no workspace root")
	}
	if opts.MaxRead <= 0 {
		opts.MaxRead = DefaultMaxRead
	}
	if opts.ShellTimeout <= 0 {
		opts.ShellTimeout = DefaultShellTimeout
	}
	if opts.MaxHTTP <= 0 {
		opts.MaxHTTP = DefaultMaxHTTP
	}
	if opts.HTTPClient == nil {
		opts.HTTPClient = &http.Client{Timeout: DefaultHTTPTimeout}
	}
	abs, err := filepath.Abs(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("builtin: workspace: %w", err)
	}
	opts.Root = abs
	root, err := os.OpenRoot(opts.Root)
	if err != nil {
		return nil, fmt.Errorf("builtin: open workspace: %w", err)
	}
	s := &Set{opts: opts, root: root}
	if err := s.build(); err != nil {
		root.Close()
		return nil, err
	}
	return s, nil
}

func (s *Set) build() error {
	makers := []func() (dispatch.Tool, error){s.readFile, s.writeFile, s.listFiles}
	if s.opts.AllowShell {
		makers = append(makers, s.shell)
	}
	if s.opts.AllowHTTP {
		makers = append(makers, s.httpGet)
	}
	for _, mk := range makers {
		t, err := mk()
		if err != nil {
			return fmt.Errorf("builtin: %w", err)
		}
		s.tools = append(s.tools, t)
	}
	return nil
}

// Tools returns the tools, file tools first.
func (s *Set) Tools() []dispatch.Tool { return s.tools }

// Root is the workspace folder.
func (s *Set) Root() string { return s.opts.Root }

// Close releases the workspace.
func (s *Set) Close() error { return s.root.Close() }
