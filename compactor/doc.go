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
// Any other model gets the character fallback: a text counts
// ceil(len(bytes)/BytesPerToken) tokens, BytesPerToken being 4, the usual
// figure for English text under BPE tokenizers. Counting bytes rather than
// runes makes non-Latin scripts cost more, which errs on the safe side.
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
