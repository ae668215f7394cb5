package openai

import (
	"net/url"
	"slices"
	"strings"
)

// isOpenAIAPI says whether baseURL is OpenAI's own API: api.openai.com, or
// one of its regional hosts for data residency (eu.api.openai.com and the
// like). Only there does a model's name say which model answers, and so
// which options it refuses. Any other server names its models as it
// likes: LocalAI serves local models as "gpt-4", users alias theirs
// "o1-local", and Azure OpenAI (*.openai.azure.com) takes the name of a
// deployment, which may be "o3" for a model that is not, or anything for
// one that is.
func isOpenAIAPI(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	host := strings.TrimSuffix(strings.ToLower(u.Hostname()), ".")
	return host == "api.openai.com" || strings.HasSuffix(host, ".api.openai.com")
}

// reasoningHosts are the APIs whose thinking models want the reasoning
// of an assistant message that called tools sent back with it:
// DeepSeek's and Moonshot's (Kimi), which refuse the request otherwise.
var reasoningHosts = []string{"api.deepseek.com", "api.moonshot.ai", "api.moonshot.cn"}

// wantsReasoningBack says whether baseURL is one of reasoningHosts (see
// sending.reasoningBack).
func wantsReasoningBack(baseURL string) bool {
	u, err := url.Parse(baseURL)
	if err != nil {
		return false
	}
	return slices.Contains(reasoningHosts, strings.TrimSuffix(strings.ToLower(u.Hostname()), "."))
}
