package openai

// errorEvent is an event a stream named "error", or one with an "error"
// field in place of data, as llama.cpp's server sent failures through
// 2025: the server's failure, whatever its data says. The SDK reads the
// first as a chunk, an empty one without an "error" key, and drops the
// unknown field of the second, so the reply before either would pass
// for a whole one once [DONE] followed.
type errorEvent struct{ data string }

func (e *errorEvent) Error() string { return "openai: error event in stream: " + e.data }
