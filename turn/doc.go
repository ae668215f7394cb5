// Package turn is the provider interface and the turn driver: it turns a
// provider's chunk stream into one model_replied or model_failed signal,
// publishing the deltas as events on the way, and enforces timeouts,
// retries, tool-argument repair and history sanitation. It imports
// contract only; turntest beside it is the conformance suite every
// provider runs.
package turn
