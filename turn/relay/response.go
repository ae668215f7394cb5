package relay

import "github.com/batonrt/baton/turn"

// Response keeps what an API's events say of a reply, the model that
// answered and the reply's id, until the decoder yields its first chunk,
// and puts one turn.ChunkResponse just before that chunk. An event that
// only names the reply (OpenAI's first frame with the role alone,
// Anthropic's message_start) yields no chunk of its own: the driver's
// first-chunk timeout and its fallback to a plain request count the
// chunks a stream yields, and a chunk that only names the reply would
// have them count a stream that had not begun its reply. The zero
// Response is ready; a decoder holds one per reply.
type Response struct {
	model, id string
	told      bool
}

// Note keeps model and id, unless an earlier event named them: a reply
// has one of each, which its first events say.
func (r *Response) Note(model, id string) {
	if r.model == "" {
		r.model = model
	}
	if r.id == "" {
		r.id = id
	}
}

// Before returns out, the chunks of one event, with the response chunk
// first if they are the reply's first chunks and an event named the
// model or the id.
func (r *Response) Before(out []turn.Chunk) []turn.Chunk {
	if r.told || len(out) == 0 {
		return out
	}
	r.told = true
	if r.model == "" && r.id == "" {
		return out
	}
	return append([]turn.Chunk{{Kind: turn.ChunkResponse, Name: r.model, Text: r.id}}, out...)
}
