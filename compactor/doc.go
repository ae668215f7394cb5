// Package compactor holds baton's token estimates and its pure compaction
// policy: whether a history is due for compaction (ShouldCompact), where it
// may be cut (FindCutPoint), what the condensed history is (Condense), the
// fallback when no summary can be made (DropToolOutputs), whether the result
// really is smaller (Shrinks), and the instruction that asks a model for the
// summary (SummaryPrompt). Every function is pure and deterministic, so the
// reducer in cadence may call them inside a step.
//
// # Token estimates
//
// Estimate picks a tiktoken encoding from the model name, ignoring case and
// any "provider/" prefix: gpt-4o, chatgpt-4o, gpt-4.1, gpt-5, o1, o3 and o4
// models use o200k_base; gpt-4 and gpt-3.5 use cl100k_base; claude-* models
// use cl100k_base as an approximation (Anthropic publishes no tokenizer, and
// cl100k_base lands within a few percent on English prose and code).
//
// Any other model gets the character fallback, meant to err on the safe
// side whatever its tokenizer: each run of ASCII counts a token for every
// ASCIIBytesPerToken (3) bytes, rounded up, and every byte outside ASCII
// counts a token. Measured against cl100k_base and o200k_base on prose in
// Latin, Greek, Cyrillic, Arabic, Hebrew, Armenian, Georgian, Devanagari,
// Tamil, Thai, Chinese, Japanese and Korean, on emoji, code and JSON (the
// table of TestFallbackEstimateBoundsKnownTokenizers), it counts no fewer
// tokens than either; on whole Go, JSON and Markdown files it lands
// within a percent of the larger count or above. It counts about 1.3 times as
// many on English prose, and 2 to 3 times as many on Chinese or Russian,
// since a tokenizer that hardly knows a script may need a token a byte.
// Dense ASCII (hex, base64, digits, runs of punctuation) can take a token
// every byte or two and is still undercounted: no cheap ratio bounds it.
//
// Runs recorded under a rules revision before
// contract.RevisionBoundedEstimates count as those rules did, a token
// for every BytesPerToken (4) bytes, which undercounts most scripts other
// than Latin (Chinese, Greek and Arabic about by half, emoji by two
// thirds) and code or JSON by up to a quarter. EstimatorFor picks the
// fallback by revision; Estimate, BlockEstimate, ResultEstimate,
// Condense and DropToolOutputs follow contract.CurrentRevision.
//
// On top of the text, every turn costs PerTurnOverhead tokens and every
// block PerBlockOverhead, for the role and framing tokens chat formats add.
// Text blocks count their text, thinking blocks their text, tool calls
// their name and arguments, tool results their content; an image counts
// ImageTokens whatever its size, since history holds images by reference
// only, and a redacted thinking block counts RedactedThinkingTokens, since
// its data is opaque.
//
// Tokenizing costs about a microsecond a byte, so a text longer than
// ExactLimit (8 KiB) is counted exactly over its first and last 4 KiB and
// its middle is scaled by the bytes-per-token ratio measured there; on
// uniform text that lands within a percent or two of the exact count, and
// a megabyte of tool output costs milliseconds instead of a second.
//
// Loaded tokenizer codecs are cached per encoding and safe for concurrent
// use, so the first estimate for an encoding pays its load once.
//
// compactor imports only contract of baton's packages.
package compactor
