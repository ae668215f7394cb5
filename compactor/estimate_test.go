package compactor_test

import (
	"strings"
	"sync"
	"testing"

	"github.com/batonrt/baton/compactor"
	"github.com/batonrt/baton/contract"
	"github.com/google/go-cmp/cmp"
)

const over = compactor.PerTurnOverhead + compactor.PerBlockOverhead

func TestEstimate(t *testing.T) {
	img := contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "file:///a.png"}}}}
	thinking := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{{Kind: contract.BlockThinking, Text: "hello world", Signature: "sig-not-counted-at-all"}}}
	call := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{contract.CallBlock(contract.ToolCall{ID: "id-not-counted", Name: "abcd", Arguments: "efghijkl"})}}
	result := contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{contract.ResultBlock(contract.ToolResult{CallID: "c1", Name: "not-counted", Content: "123456789"})}}
	redacted := contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{{Kind: contract.BlockRedactedThinking, Signature: strings.Repeat("EnC0", 500)}}}
	two := contract.Turn{Role: contract.RoleUser, Blocks: []contract.Block{contract.TextBlock("hello world"), contract.TextBlock("hello world")}}
	tests := []struct {
		name  string
		model string
		turn  contract.Turn
		want  int
	}{
		{"empty turn", "gpt-4o", contract.Turn{Role: contract.RoleUser}, compactor.PerTurnOverhead},
		{"cl100k text", "gpt-4", user("tiktoken is great!"), over + 6},
		{"o200k text", "gpt-4o", user("hello world"), over + 2},
		{"cl100k text", "gpt-3.5-turbo", user("hello world"), over + 2},
		{"claude uses cl100k", "claude-sonnet-4-5", user("tiktoken is great!"), over + 6},
		{"provider prefix and case", "openai/GPT-4o-mini", user("hello world"), over + 2},
		{"fallback rounds up", "llama3.1:8b", user("1234567"), over + 3},
		{"fallback empty model", "", user("123456"), over + 2},
		{"fallback counts other bytes one each", "mistral", user("ééé"), over + 6},
		{"fallback rounds each ascii run up", "mistral", user("a é b"), over + 1 + 2 + 1},
		{"thinking counts text only", "gpt-4o", thinking, over + 2},
		{"call counts name and arguments", "unknown", call, over + 2 + 3},
		{"result counts content", "unknown", result, over + 3},
		{"image is a fixed figure", "gpt-4o", img, over + compactor.ImageTokens},
		{"image fallback model", "unknown", img, over + compactor.ImageTokens},
		{"redacted thinking is a fixed figure", "claude-sonnet-4-5", redacted, over + compactor.RedactedThinkingTokens},
		{"redacted thinking fallback model", "unknown", redacted, over + compactor.RedactedThinkingTokens},
		{"two blocks", "gpt-4o", two, compactor.PerTurnOverhead + 2*(compactor.PerBlockOverhead+2)},
		{"nil call is empty", "gpt-4o", contract.Turn{Blocks: []contract.Block{{Kind: contract.BlockToolCall}}}, over},
		{"invalid utf-8 does not panic", "gpt-4o", user("\xff\xfe\xfd"), 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := compactor.Estimate(tt.model, tt.turn)
			if tt.want == 0 {
				if got <= over {
					t.Fatalf("Estimate = %d, want more than %d", got, over)
				}
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

// The encodings really differ: a text both count differently proves the
// model name picks the encoding.
func TestEstimateEncodingsDiffer(t *testing.T) {
	text := user(strings.Repeat("Der Straßenbahnfahrer überprüfte die Fahrkarten. ", 20))
	o200k := compactor.Estimate("gpt-4o", text)
	cl100k := compactor.Estimate("gpt-4", text)
	fallback := compactor.Estimate("unknown-model", text)
	if o200k == cl100k || cl100k == fallback {
		t.Fatalf("estimates o200k=%d cl100k=%d fallback=%d, want three different figures", o200k, cl100k, fallback)
	}
	for _, m := range []string{"gpt-4.1", "gpt-5-mini", "o1", "o3-mini", "o4-mini", "chatgpt-4o-latest"} {
		if got := compactor.Estimate(m, text); got != o200k {
			t.Errorf("Estimate(%q) = %d, want the o200k figure %d", m, got, o200k)
		}
	}
	for _, m := range []string{"gpt-4-turbo", "gpt-3.5-turbo-0125", "claude-3-5-haiku"} {
		if got := compactor.Estimate(m, text); got != cl100k {
			t.Errorf("Estimate(%q) = %d, want the cl100k figure %d", m, got, cl100k)
		}
	}
	for _, m := range []string{"o1x", "gpt-40", "gemini-2.5-pro", "claude"} {
		if got := compactor.Estimate(m, text); got != fallback {
			t.Errorf("Estimate(%q) = %d, want the fallback figure %d", m, got, fallback)
		}
	}
}

func TestEstimateConcurrent(t *testing.T) {
	turn := user(strings.Repeat("concurrent estimates share one codec ", 10))
	want := map[string]int{"gpt-4o": compactor.Estimate("gpt-4o", turn), "gpt-4": compactor.Estimate("gpt-4", turn)}
	var wg sync.WaitGroup
	errs := make(chan string, 16)
	for i := range 16 {
		model := "gpt-4o"
		if i%2 == 1 {
			model = "gpt-4"
		}
		wg.Go(func() {
			if got := compactor.Estimate(model, turn); got != want[model] {
				errs <- model
			}
		})
	}
	wg.Wait()
	close(errs)
	for m := range errs {
		t.Errorf("concurrent Estimate(%q) differs from %d", m, want[m])
	}
}

// A text past ExactLimit is sampled at both ends; on uniform text the
// estimate stays within 2% of counting it piece by piece.
func TestEstimateLongTextSampled(t *testing.T) {
	line := "func main() { fmt.Println(\"héllo\", 42) } // some code\n"
	piece := strings.Repeat(line, compactor.ExactLimit/len(line))
	const pieces = 12
	exact := 0
	for range pieces {
		exact += compactor.Estimate("gpt-4o", user(piece)) - over
	}
	got := compactor.Estimate("gpt-4o", user(strings.Repeat(piece, pieces))) - over
	if d := got - exact; d*50 > exact || -d*50 > exact {
		t.Errorf("sampled estimate %d, piecewise exact %d: off by more than 2%%", got, exact)
	}
	if got == compactor.Estimate("unknown", user(strings.Repeat(piece, pieces)))-over {
		t.Error("long text fell back to the character estimate")
	}
}
