package mcp

import (
	"os"
	"runtime"
	"strings"
)

// safeEnv names the host's variables a command gets when its Server does
// not ask for the host's whole environment: what a program needs to find
// its tools, its home and its terminal, as the MCP TypeScript SDK's
// stdio client passes (on POSIX the list sudo keeps). The host's
// environment often holds model API keys, database URLs with passwords
// and tokens, which a third-party server has no business reading.
var safeEnv = safeEnvFor(runtime.GOOS)

func safeEnvFor(goos string) []string {
	if goos == "windows" {
		return []string{
			"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PATH",
			"PROCESSOR_ARCHITECTURE", "PROGRAMFILES", "SYSTEMDRIVE", "SYSTEMROOT",
			"TEMP", "USERNAME", "USERPROFILE",
		}
	}
	return []string{"HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER"}
}

// commandEnv is the environment a start of srv's command gets, read from
// the host's at the time, so that each restart sees the host as it is
// now: the host's whole environment with InheritEnv, else its safe
// variables, and srv.Env's entries over either (a later entry wins, as
// exec.Cmd takes the last of a name).
func commandEnv(srv Server) []string {
	var env []string
	if srv.InheritEnv {
		env = os.Environ()
	} else {
		for _, name := range safeEnv {
			v, ok := os.LookupEnv(name)
			// A value that looks like a shell function would be defined
			// as one by a shell the server runs (as Shellshock did).
			if !ok || strings.HasPrefix(v, "()") {
				continue
			}
			env = append(env, name+"="+v)
		}
	}
	return append(env, srv.Env...)
}
