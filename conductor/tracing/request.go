package tracing

import (
	"go.opentelemetry.io/otel/attribute"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/batonrt/baton/contract"
)

// requestAttrs are the parameters a run with cfg asks of each model call,
// those it sets: what a before-model hook rewrites in a request is not
// seen here.
func requestAttrs(cfg contract.AgentConfig) []attribute.KeyValue {
	attrs := []attribute.KeyValue{semconv.GenAIRequestMaxTokens(cfg.MaxOutputTokens)}
	s := cfg.Sampling
	if s.Temperature != nil {
		attrs = append(attrs, semconv.GenAIRequestTemperature(*s.Temperature))
	}
	if s.TopP != nil {
		attrs = append(attrs, semconv.GenAIRequestTopP(*s.TopP))
	}
	if s.Seed != nil {
		attrs = append(attrs, semconv.GenAIRequestSeed(int(*s.Seed)))
	}
	if len(s.Stop) > 0 {
		attrs = append(attrs, semconv.GenAIRequestStopSequences(s.Stop...))
	}
	return attrs
}
