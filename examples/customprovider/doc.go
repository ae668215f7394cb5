// Customprovider plugs a hand-written model into baton. A provider only
// streams chunks for a request: text, tool calls (start, argument
// fragments, end), usage and a stop reason. The turn driver assembles
// them, repairs arguments, retries and times out; the provider does none
// of that. This one is a rule-based "model" that asks for the clock when
// the user says "time" and otherwise shouts the user's words back.
package main
