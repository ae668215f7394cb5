package openai

import (
	"testing"

	"github.com/batonrt/baton/contract"
	"github.com/batonrt/baton/turn/transcripttest"
)

// TestQuotaExhaustedIsNotARateLimit: OpenAI answers 429 with
// insufficient_quota when the account has run out of credit or hit its
// spend limit. Waiting does not cure it, so it must not be classified as
// a (retryable) rate limit, retried with back-off, and reported as one.
func TestQuotaExhaustedIsNotARateLimit(t *testing.T) {
	suite.HTTPErrors(t, []transcripttest.HTTPError{
		{Name: "insufficient quota", Transcript: "### HTTP 429\n\n{\"error\":{\"message\":\"You exceeded your current quota, please check your plan and billing details. For more information on this error, read the docs: https://platform.openai.com/docs/guides/error-codes/api-errors.\",\"type\":\"insufficient_quota\",\"param\":null,\"code\":\"insufficient_quota\"}}\n", Fail: contract.FailAuth, Status: 429},
	})
}
