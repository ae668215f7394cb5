// Package dispatch runs tool calls. Its Scheduler starts calls in FIFO
// order under a global concurrency limit, runs sequential tools alone,
// bounds each call with a timeout, carries cancellation to every running
// tool, turns panics into error outcomes, caps output, and delivers each
// outcome as soon as its call finishes. Its ToolBox holds the tools an
// agent may call, in scopes that shadow by name, and Func turns a typed Go
// function into a Tool whose JSON Schema is derived from its input type
// and enforced before the function runs.
//
// It imports contract only, of baton's packages.
package dispatch
