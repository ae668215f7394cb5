// Package mcp makes the tools of Model Context Protocol servers baton
// tools, through the official SDK (github.com/modelcontextprotocol/go-sdk).
// Connect starts a server as a command over stdio or reaches one at a
// streamable HTTP URL (with headers); its Source lists the server's tools
// as dispatch.Tools (names sanitized and optionally prefixed, names that
// come out alike told apart by a hash of the server's name, descriptions
// and input schemas kept; a tool the host's Server.CheckTool refuses, or
// whose input schema is of a type other than object, which the providers
// refuse, is left out with a warning, as is a tool listed again), so their calls run under the same scheduler as
// every other tool: concurrency limit, timeout, output cap, approvals, and
// cancellation, which reaches the server as a cancel notification. A
// server's tool-list change is picked up by the next call to Tools, which
// a host makes before each run, and is reported at once, with the new
// list, to Server.OnToolsChanged, by which a host hands it to a run in
// flight; a call during which the server announced a change returns
// after that report, so its result reaches the run after the new list
// did. A call of a tool the server no longer lists fails as an unknown
// tool. A server that dies or hangs gives error
// results and a log line, never a stuck run; a command that exits is
// reported with its program's name (not its arguments, which may hold
// credentials), its exit status and the end of its standard error, and
// the next call of its tools starts it again; a line a command writes to
// its stdout that is no message (a banner, a debug line, a log line in JSON) is skipped with
// a warning (the first few of each run of the command only) rather than
// end the connection; a server over HTTP whose
// session ended (a restarted server answers 404 for it) is connected
// again with a new session by the next call. Either is done after a
// backoff and at most Server.MaxRestarts times in Server.RestartWindow,
// and a call in flight when the connection ended is not retried. A
// call's error names a server over HTTP by its scheme and host only, as
// the rest of its URL may hold its key and the error goes to the model
// and the session. Content a tool outcome
// cannot hold as text (images, audio, binary resources) becomes a note
// naming its type and size.
//
// A command does not get the host's whole environment, which holds its
// model keys, database passwords and tokens, as the MCP TypeScript SDK's
// stdio client does not hand it on either: it gets the host's safe
// variables (on POSIX HOME, LOGNAME, PATH, SHELL, TERM and USER, a value
// that looks like a shell function left out), read again at each start,
// with Server.Env's entries over them; Server.InheritEnv hands on the
// whole environment instead.
//
// It imports contract and dispatch, of baton's packages.
package mcp
