package openai

import (
	"crypto/sha256"
	"encoding/hex"
)

// maxCallID is the longest tool call id OpenAI takes in a request.
const maxCallID = 40

// wireCallID is a call id as OpenAI takes it back: ids from other
// servers can be longer than it accepts, and such an id goes as call_
// and a hash of it, so that a call and its result map to the same id and
// distinct calls to distinct ids.
func wireCallID(id string) string {
	if len(id) <= maxCallID {
		return id
	}
	sum := sha256.Sum256([]byte(id))
	return "call_" + hex.EncodeToString(sum[:16])
}
