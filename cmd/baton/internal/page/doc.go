// Package page is the chat page `baton serve` offers at /: a small web
// client, built on the AI SDK's own chat class and transport, that
// streams a thread's text, shows its tool calls and results, answers
// the approvals and questions a run waits on, steers a run with what the
// user sends while it streams or waits on them (showing one the run
// ended before taking as not delivered), and shows the whole
// thread again after a reload. The page and its assets are embedded, so
// it works with no network beyond the server.
//
// It imports only the standard library.
package page
