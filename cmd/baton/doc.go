// Command baton is the command line of the baton agent runtime. It runs
// prompts against a model with built-in workspace tools (baton run), plays
// a scripted demo session that needs no key (baton demo), and looks at the
// sessions kept in the file store: list them, print a transcript or the
// node graph, replay one and verify it byte for byte, fork one at a node,
// export and import them as JSONL, and serve an agent over AG-UI.
//
// Every subcommand has its own flag set and --help. Exit codes: 0 ok, 1 a
// runtime failure, 2 a usage error, 130 a run stopped with Ctrl-C; errors
// go to stderr prefixed "baton: ".
// The store is --store DIR or --store postgres://..., or $BATON_HOME/store,
// or ~/.baton/store.
//
// It may import any package of baton's.
package main
