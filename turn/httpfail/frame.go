package httpfail

import "strings"

// streamedPrefix is how the Stainless-generated SDKs (openai-go and
// anthropic-sdk-go alike) report an error event met mid-stream.
const streamedPrefix = "received error while streaming: "

// StreamedJSON returns the raw JSON of an error event the SDK met while
// streaming; ok is false when err is not one.
func StreamedJSON(err error) (raw string, ok bool) {
	if err == nil {
		return "", false
	}
	s := err.Error()
	i := strings.Index(s, streamedPrefix)
	if i < 0 {
		return "", false
	}
	return s[i+len(streamedPrefix):], true
}
