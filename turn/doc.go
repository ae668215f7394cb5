// Package turn is the provider interface and the turn driver: it turns a
// provider's chunk stream into one model_replied or model_failed signal,
// publishing the deltas as events on the way, and enforces timeouts,
// retries, tool-argument repair and history sanitation; ToolSchema makes
// a tool's input schema one the function-calling APIs take. It imports
// contract only. Beside it, turntest is the conformance suite every
// provider runs, and endpoint, httpfail, relay and transcripttest are the
// toolkit any HTTP provider, in this module or outside it, is built and
// tested with.
package turn
