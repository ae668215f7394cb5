package transcripttest

import "github.com/batonrt/baton/contract"

// WeatherRequest is the plain request the transcripts answer: one user
// question and one tool, get_weather.
func WeatherRequest(model string) contract.ModelRequest {
	return contract.ModelRequest{
		Model:   model,
		History: contract.HistoryOf(contract.UserText("What is the weather in Paris?")),
		Tools: []contract.ToolDescriptor{{
			Name:        "get_weather",
			Description: "Current weather for a city.",
			InputSchema: []byte(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
		}},
		MaxOutputTokens: 256,
		Turn:            1,
	}
}

// RichRequest covers every block kind and role a request mapping knows,
// for request golden files; extra joins the first user turn, for block
// forms only some APIs take.
func RichRequest(model string, extra ...contract.Block) contract.ModelRequest {
	req := WeatherRequest(model)
	req.System = "You are terse."
	req.Thinking = contract.ThinkingMedium
	req.Tools = append(req.Tools, contract.ToolDescriptor{Name: "get_time"})
	first := []contract.Block{
		contract.TextBlock("What is in this picture, and the weather in Paris and Tokyo?"),
		{Kind: contract.BlockImage, Image: &contract.ImageRef{URI: "https://example.com/cat.png", MediaType: "image/png"}},
	}
	req.History = contract.HistoryOf(
		contract.Turn{Role: contract.RoleUser, Blocks: append(first, extra...)},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{
			{Kind: contract.BlockThinking, Text: "Two lookups.", Signature: "sig-1"},
			contract.TextBlock("A cat. Checking the weather."),
			contract.CallBlock(contract.ToolCall{ID: "call_1", Name: "get_weather", Arguments: `{"city":"Paris"}`}),
			contract.CallBlock(contract.ToolCall{ID: "call_2", Name: "get_weather", Arguments: `{"city": "Tokyo"`}),
		}},
		contract.Turn{Role: contract.RoleTool, Blocks: []contract.Block{
			contract.ResultBlock(contract.ToolResult{CallID: "call_1", Name: "get_weather", Content: "18C, cloudy"}),
			contract.ResultBlock(contract.ToolResult{CallID: "call_2", Name: "get_weather", Content: "malformed arguments", IsError: true}),
		}},
		contract.Turn{Role: contract.RoleUser, Mark: contract.MarkSteer, Blocks: []contract.Block{contract.TextBlock("Only Paris, please.")}},
		contract.Turn{Role: contract.RoleAssistant, Blocks: []contract.Block{{Kind: contract.BlockThinking, Text: "Only thinking."}}},
		contract.UserText("Thanks."),
	)
	return req
}
