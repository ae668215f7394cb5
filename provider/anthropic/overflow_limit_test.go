package anthropic

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestContextLimitIsOverflow: when the prompt plus max_tokens (which
// grows by the thinking budget) no longer fits, the Messages API answers
// 400 "input length and `max_tokens` exceed context limit"; that is a
// context overflow, which compaction can cure, not a final bad request.
func TestContextLimitIsOverflow(t *testing.T) {
	suite.HTTPErrors(t, []transcripttest.HTTPError{
		{Name: "input plus max_tokens exceed context limit", Transcript: "### HTTP 400\n\n{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\",\"message\":\"input length and `max_tokens` exceed context limit: 178959 + 28672 > 200000, decrease input length or `max_tokens` and try again\"},\"request_id\":\"req_011CUB2XUHWkFnQzxcKBbjpF\"}\n", Fail: contract.FailContextOverflow, Status: 400},
	})
}
