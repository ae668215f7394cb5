// Command baton is the command line of the baton agent runtime. It runs
// prompts against a model with built-in workspace tools (baton run), plays
// a scripted demo session that needs no key (baton demo), and looks at the
// sessions kept in the store: list them (delegated runs' sessions under
// their parents with --children), print a transcript or the node graph,
// replay one and verify it byte for byte, fork one at a node, export and
// import them as JSONL, and serve agents over AG-UI and the AI SDK's UI
// message stream, with a chat page, to the holder of one token or to
// several users (--tokens), each with threads of their own.
//
// Every subcommand has its own flag set and --help (baton help CMD shows
// it too). Exit codes: 0 ok, 1 a runtime failure, 2 a usage error, 130 a
// command stopped with Ctrl-C
// (serve shuts down, even while it starts, and exits 0; a second Ctrl-C
// exits 130 at once; SIGTERM drains it for a restart, leaving the runs
// that outlive --drain-timeout in flight in the store, and it exits 0);
// errors go to stderr prefixed "baton: ". --json output escapes the
// characters a terminal acts on as \uXXXX, as the text output escapes
// them.
// The store is --store DIR or --store postgres://..., or $BATON_HOME/store,
// or ~/.baton/store.
//
// It may import any package of baton's.
package main
