// Package openai is a turn.Provider for the OpenAI Chat Completions API
// and every server that speaks it (Ollama, vLLM, llama.cpp, LM Studio,
// OpenRouter): it maps a contract.ModelRequest onto a streaming request
// through the official SDK and turns the streamed chunks into turn.Chunks,
// the model that answered and the completion's id first
// (turn.ChunkResponse), tool calls keyed by their index (a name sent in
// pieces joined), usage last, failures as *turn.ProviderError. A stream
// that ends with "data: [DONE]" and no finish_reason, as some compatible
// servers send, is a whole reply; one that ends without either was cut.
// An event named "error", or one with an "error" field in place of data
// (llama.cpp's server until late 2025), fails the reply with what it
// says, whatever follows it.
//
// Which options a model takes is decided by Rules. By default
// (RulesByHost), at OpenAI's own API (api.openai.com and its regional
// hosts) options an OpenAI model refuses (temperature on a reasoning
// model, a reasoning effort on one that does not reason) are refused
// before sending, and by CheckConfig when an agent is created; the model
// is known by its name. Any other server, Azure OpenAI among them, names
// its models as it likes and is sent what was asked. WithRules changes
// that: RulesOpenAI follows OpenAI's rules at any host (an Azure
// deployment named after its model, a gateway in front of OpenAI), and
// RulesCompatible follows none and sends the output limit as max_tokens
// rather than max_completion_tokens, for servers that know only the
// older name.
//
// Reasoning a server streams beside the content (reasoning_content or
// reasoning) is the reply's thinking. It is not sent back, as OpenAI and
// servers such as Cerebras refuse it, except at DeepSeek's and
// Moonshot's own APIs (api.deepseek.com, api.moonshot.ai and .cn), whose
// thinking models require an assistant message that called tools to come
// with its reasoning_content.
//
// The stream is read as the event-stream format says (lone CR line ends,
// a byte order mark, the last "event" line naming an event, no event
// from a stream cut before its blank line) by provider/internal/sse,
// which passes it on to the SDK's decoder; what is OpenAI's own, [DONE]
// and the error events, is looked for here.
//
// The SDK's own retries are off; the turn driver retries. It imports
// contract and turn (with its HTTP provider toolkit: endpoint, httpfail,
// relay), and provider/internal/sse. New and NewFromEnv take endpoint's
// options: base URL, API key, HTTP client.
package openai
