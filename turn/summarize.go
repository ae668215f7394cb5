package turn

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// SummarySystem is the system prompt of a summary request.
const SummarySystem = "You condense conversations. Summarise the conversation you are given so that an assistant can continue it: keep the user's goals, decisions made, facts learned, tool results that still matter and open questions. Reply with the summary only."

// ErrEmptySummary says the model replied to a summary request without text.
var ErrEmptySummary = errors.New("turn: summary is empty")

// ErrCutSummary says the token limit cut the model's summary short.
var ErrCutSummary = errors.New("turn: summary was cut by the token limit")

// Summarize asks the provider to condense turns, rendered by the caller
// into prompt, and returns the summary text. It runs through a Driver, so
// opts' timeouts and retries apply; a final failure is returned as a
// *ProviderError.
func Summarize(ctx context.Context, p Provider, model string, prompt string, opts Options) (string, error) {
	if strings.TrimSpace(prompt) == "" {
		return "", errors.New("turn: summarize: empty prompt")
	}
	return SummarizeRequest(ctx, p, SummaryRequest(model, prompt), opts)
}

// SummaryRequest is the request Summarize sends, marked Summary, for a
// caller that shows it to someone (a before-model hook) before sending
// it with SummarizeRequest.
func SummaryRequest(model, prompt string) contract.ModelRequest {
	return contract.ModelRequest{
		Model:   model,
		System:  SummarySystem,
		History: contract.HistoryOf(contract.UserText(prompt)),
		Turn:    1,
		Summary: true,
	}
}

// SummarizeRequest is Summarize with the request given, as
// SummaryRequest made it or as a hook then rewrote it.
func SummarizeRequest(ctx context.Context, p Provider, req contract.ModelRequest, opts Options) (string, error) {
	if req.History.Len() == 0 {
		return "", errors.New("turn: summarize: empty history")
	}
	return SummaryOf(ctx, NewDriver(p, opts).Run(ctx, req, nil))
}

// SummaryOf reads the summary out of a driver's answer to a summary
// request, for a caller that runs the driver itself to show the answer
// to someone (an after-model hook) first. ctx is the one the request ran
// under: its cancellation stays visible to errors.Is.
func SummaryOf(ctx context.Context, answer contract.Signal) (string, error) {
	switch sig := answer.(type) {
	case contract.ModelReplied:
		if sig.Stop == contract.StopMaxTokens {
			return "", ErrCutSummary
		}
		text := strings.TrimSpace(sig.Reply.Text())
		if text == "" {
			return "", ErrEmptySummary
		}
		return text, nil
	case contract.ModelFailed:
		return "", fmt.Errorf("turn: summarize: %w", &ProviderError{Failure: sig.Failure, Message: sig.Message, Err: ctx.Err()})
	default:
		return "", fmt.Errorf("turn: summarize: unexpected signal %T", sig)
	}
}
