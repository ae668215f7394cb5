// Package scripted is a turn.Provider that plays a script instead of
// calling a model: replies with text, thinking, tool calls, usage and stop
// reasons, delays before and between chunks, and failures (an HTTP-style
// status with Retry-After, an in-stream error, a stream cut after N chunks,
// a stream that hangs until its context ends). It records every request
// and can assert on each one. Tests, demos and benchmarks run on it. It
// imports contract and turn.
//
// A script is built in Go (New, Repeat, Func, Echo) or read from JSON
// (Parse, Load):
//
//	{"loop": false, "replies": [
//	  {"text": "Checking.", "tool_calls": [{"id": "call_1", "name": "get_weather", "arguments": {"city": "Paris"}}]},
//	  {"fail": {"status": 429, "retry_after": "1s"}},
//	  {"thinking": "Hm.", "signature": "sig", "text": "It is sunny.", "usage": {"input_tokens": 10, "output_tokens": 5},
//	   "first_delay": "5ms", "chunk_delay": "1ms"}
//	]}
package scripted
