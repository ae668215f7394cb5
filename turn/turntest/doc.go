// Package turntest is the conformance suite every turn.Provider runs, in
// the manner of testing/slogtest: Run drives each Case through a
// turn.Driver with short timeouts and an instant, recording Sleep, and
// explains each rule a provider breaks. A provider's test supplies, per
// case, a provider that plays it: for real providers an httptest server
// replaying that case's recorded transcript in the API's streaming wire
// format; for provider/scripted a script. It imports contract and turn.
//
// Every case sends Request(c) and expects:
//
//	text                  reply text "Hello, world.", stop end_turn, usage input 10, output 5
//	tools                 one call: id "call_1", name "get_weather", arguments equal as JSON
//	                      to {"city":"Paris"}; stop tool_use
//	parallel_tools        two calls in order: call_1 get_weather {"city":"Paris"},
//	                      call_2 get_weather {"city":"Tokyo"}; stop tool_use
//	thinking              a thinking block "Let me think." signed "sig-1", then text
//	                      "Done."; stop end_turn
//	usage                 text "Hi."; usage input 100, output 20, cached 30
//	                      (reasoning tokens optional)
//	error_frame           every attempt's stream carries an in-stream error frame:
//	                      ModelFailed of any kind with a message
//	rate_limited          a 429 with Retry-After: 0, then the "Hello, world." stream:
//	                      ModelReplied, one model_retry event and one Sleep call
//	server_error_then_ok  a 500, then the "Hello, world." stream: ModelReplied
//	cut_mid_tool_call     every attempt's stream stops inside a tool call's arguments,
//	                      without a stop: ModelFailed stream after MaxRetries retries,
//	                      no partial output in any reply
//	malformed_arguments   one call call_1 get_weather with arguments {"city": "Paris"
//	                      (no closing brace): repaired to {"city":"Paris"}
//	max_tokens_mid_tool_call  the reply reaches the output token limit inside call_1
//	                      get_weather's arguments, {"city": "Par, and the API says so
//	                      (finish_reason "length", stop_reason "max_tokens"):
//	                      ModelReplied with stop max_tokens and the arguments kept
//	                      as cut, never closed into a call that would run
//	never_ends            one text chunk, then nothing until ctx is done: with
//	                      IdleTimeout 200ms and no retries, ModelFailed timeout
//	cut_after_stop        every attempt's stream carries "Hello, world." and says how
//	                      it stopped (finish_reason "stop", message_delta's stop_reason),
//	                      then breaks before the stream's own end (the usage chunk and
//	                      [DONE], message_stop): ModelReplied with that text and stop
//	                      end_turn at the first attempt, no model_retry; usage the cut
//	                      took is zero
//	split_characters      text "Grüße aus 東京." and one call call_1 get_weather
//	                      {"city":"Zürich"}, the stream splitting ü, ß, 東 and 京
//	                      between chunks: stop tool_use
//	response              text "Hello, world." from a reply that names the model that
//	                      answered, ResponseModel, and its id, ResponseID: the driver's
//	                      Response (Driver.RunReply) carries both
//
// In every case, each attempt's stream holds at most one ChunkResponse,
// before its first content chunk (text, thinking, tool call) and its
// stop: a reply has one model and one id, which the APIs report in their
// first frame. A provider whose API reports neither sends none.
//
// For every reply the suite also checks that the published deltas
// reassemble into the reply, so a provider streams rather than buffers,
// and that each delta is UTF-8, as a client reads them one by one.
package turntest
