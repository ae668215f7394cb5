package main

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/batonrt/baton/dispatch/mcp"
)

// mcpEnvFlag is --mcp-env, which gives the stdio server of the --mcp or
// --mcp-trusted before it a variable: NAME=VALUE, or NAME for baton's
// own value. A server gets only the host's safe variables (PATH, HOME,
// ...) besides these, not baton's whole environment, where model keys
// and database passwords live; NAME hands one on without writing its
// value on the command line, where other users' ps can read it.
type mcpEnvFlag struct {
	servers *[]mcp.Server
}

func (f mcpEnvFlag) String() string { return "" }

func (f mcpEnvFlag) Set(spec string) error {
	if len(*f.servers) == 0 {
		return errors.New("no --mcp or --mcp-trusted before it to give it to")
	}
	s := &(*f.servers)[len(*f.servers)-1]
	if s.URL != "" {
		return fmt.Errorf("server %q is reached over HTTP and has no environment", s.Name)
	}
	name, _, given := strings.Cut(spec, "=")
	if name == "" || strings.ContainsAny(name, " \t") {
		return errors.New("not NAME=VALUE or NAME")
	}
	if !given {
		v, ok := os.LookupEnv(name)
		if !ok {
			return fmt.Errorf("%s is not set in baton's environment", name)
		}
		spec = name + "=" + v
	}
	s.Env = append(s.Env, spec)
	return nil
}
