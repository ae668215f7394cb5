// Package dispatch runs tool calls. Its Scheduler starts calls in FIFO
// order under a global concurrency limit, runs sequential tools alone,
// bounds each call with a timeout, carries cancellation to every running
// tool, turns panics into error outcomes, caps output, and delivers each
// outcome as soon as its call finishes. Its ToolBox holds the tools an
// agent may call, in scopes that shadow by name, and Func turns a typed Go
// function into a Tool whose JSON Schema is derived from its input type
// and enforced before the function runs; DerivedSchema derives a schema
// the same way, with the check Func makes that the schema and
// encoding/json agree on the type's fields, for others that decode into
// a Go type.
//
// A tool that ignores its context cannot be stopped in Go. The Scheduler
// answers such a call when its timeout or cancellation comes, lets the
// tool keep its slot for a grace period, then frees the slot and counts
// the tool in Stragglers until it returns; Close names the stragglers it
// could not wait for. Every other goroutine the Scheduler starts has ended
// when Close returns nil. A Job's Here may take a call to run on a
// goroutine of the caller's instead of one of the Scheduler's; the call is
// answered at its timeout all the same.
//
// It imports contract only, of baton's packages.
package dispatch
