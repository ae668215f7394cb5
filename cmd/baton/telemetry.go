package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	semconv "go.opentelemetry.io/otel/semconv/v1.41.0"

	"github.com/batonrt/baton/conductor/tracing"
)

// contentEnv opts in to message content on spans, as OpenTelemetry's
// GenAI instrumentations name it.
const contentEnv = "OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT"

// startTracing sets a.tracer when the standard OTEL_EXPORTER_OTLP_*
// variables name an endpoint (and OTEL_SDK_DISABLED or
// OTEL_TRACES_EXPORTER=none do not switch it off), exporting over OTLP/HTTP (the exporter reads
// the endpoint, headers, timeout and the rest from the environment). The
// returned stop flushes and ends the export.
func (a *app) startTracing(ctx context.Context, provider, model string) (stop func(), err error) {
	if os.Getenv("OTEL_EXPORTER_OTLP_ENDPOINT") == "" && os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return func() {}, nil
	}
	if disabled, _ := strconv.ParseBool(os.Getenv("OTEL_SDK_DISABLED")); disabled || os.Getenv("OTEL_TRACES_EXPORTER") == "none" {
		return func() {}, nil
	}
	proto := os.Getenv("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL")
	if proto == "" {
		proto = os.Getenv("OTEL_EXPORTER_OTLP_PROTOCOL")
	}
	if proto != "" && proto != "http/protobuf" {
		return nil, fmt.Errorf("tracing: OTLP protocol %q is not supported; baton exports http/protobuf", proto)
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	res, err := resource.New(ctx, resource.WithAttributes(semconv.ServiceName("baton")), resource.WithFromEnv())
	if err != nil && !errors.Is(err, resource.ErrPartialResource) {
		return nil, fmt.Errorf("tracing: %w", err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithBatcher(exp), sdktrace.WithResource(res))
	content, _ := strconv.ParseBool(strings.TrimSpace(os.Getenv(contentEnv)))
	a.tracer = tracing.New(tp, tracing.Options{Provider: provider, Model: model, Content: content})
	return func() {
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := tp.Shutdown(sctx); err != nil {
			fmt.Fprintf(a.stderr, "baton: tracing: %v\n", err)
		}
	}, nil
}
