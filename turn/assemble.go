package turn

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/batonrt/baton/contract"
)

// assembler folds one attempt's chunks into an assistant turn and turns
// each delta into an event. It is rebuilt for every attempt, so a retried
// stream never glues onto a broken one.
type assembler struct {
	blocks []contract.Block
	text   []deltas   // per block: its text, thinking or arguments
	args   []callSlot // the tool calls started, by index
	usage  contract.Usage
	// response is what the provider said of the reply (ChunkResponse).
	response Response
	stop     contract.StopReason
	stopped  bool
	chunks   int // chunks folded in
	// tail is one past the block the newest text, thinking or arguments
	// went to: where a reply cut by the token limit was cut.
	tail  int
	known []string // tool names, for NormalizeToolName
	// textCalls reads a reply whose text is one JSON tool call as that
	// call (Options.TextToolCalls).
	textCalls bool
	now       func() contract.Timestamp
	publish   func(*contract.RunEvent)
	// ev is the event being published: made here, not in the frames of
	// the calls that stream a reply, and passed on by pointer.
	ev contract.RunEvent

	// Room for the blocks, deltas and calls of a usual reply, so they
	// grow inside the assembler; reply copies the blocks out.
	blockRoom [4]contract.Block
	textRoom  [4]deltas
	argsRoom  [4]callSlot
}

// callSlot places a tool call's stream index among the blocks, with the
// call as its events show it (id and name): one copy for all of them,
// which the block points at until reply gives the reply's calls their
// own.
type callSlot struct {
	index, pos int
	shown      *contract.ToolCall
}

// deltas joins a block's deltas. The common stream sends a block's text
// or arguments in one delta, which is kept as it came, without a copy;
// only a second delta starts a buffer.
type deltas struct {
	first string
	buf   []byte
	// held is the start of a character the last delta left unfinished,
	// not yet published (see show).
	held string
}

func (d *deltas) add(s string) {
	switch {
	case d.buf != nil:
		d.buf = append(d.buf, s...)
	case d.first == "":
		d.first = s
	case s != "":
		d.buf = make([]byte, 0, 2*(len(d.first)+len(s)))
		d.buf = append(append(d.buf, d.first...), s...)
	}
}

func (d *deltas) String() string {
	if d.buf != nil {
		return string(d.buf)
	}
	return d.first
}

// call returns the block position of the tool call with the stream
// index i.
func (a *assembler) call(i int) (callSlot, bool) {
	for _, c := range a.args {
		if c.index == i {
			return c, true
		}
	}
	return callSlot{}, false
}

// reset empties a for a new attempt or reply.
func (a *assembler) reset(known []string, now func() contract.Timestamp, publish func(*contract.RunEvent)) {
	// Cleared in place: a literal would be built on the stack first.
	*a = assembler{}
	a.known, a.now, a.publish = known, now, publish
	a.blocks, a.text, a.args = a.blockRoom[:0], a.textRoom[:0], a.argsRoom[:0]
}

// add folds one chunk in; an error means the stream broke its protocol.
func (a *assembler) add(c Chunk) error {
	a.chunks++
	switch c.Kind {
	case ChunkText:
		i := a.appendText(contract.BlockText, c.Text, "")
		if s := a.text[i].show(c.Text); s != "" {
			a.emit(contract.EvTextDelta, 0, nil, s)
		}
	case ChunkThinking:
		i := a.appendText(contract.BlockThinking, c.Text, c.Signature)
		if s := a.text[i].show(c.Text); s != "" {
			a.emit(contract.EvThinkingDelta, 0, nil, s)
		}
	case ChunkRedactedThinking:
		a.addRedacted(c.Signature)
	case ChunkToolCallStart:
		return a.startCall(c)
	case ChunkToolCallArgs:
		return a.addArgs(c)
	case ChunkToolCallEnd:
		if _, ok := a.call(c.Index); !ok {
			return fmt.Errorf("turn: end of unknown tool call index %d", c.Index)
		}
	case ChunkUsage:
		a.mergeUsage(c.Usage)
	case ChunkStop:
		a.stop, a.stopped = c.Stop, true
	case ChunkResponse:
		if c.Name != "" {
			a.response.Model = c.Name
		}
		if c.Text != "" {
			a.response.ID = c.Text
		}
	default:
		return fmt.Errorf("turn: unknown chunk kind %q", c.Kind)
	}
	return nil
}

// emit publishes a delta.
func (a *assembler) emit(kind contract.EventKind, index int, call *contract.ToolCall, text string) {
	if a.publish == nil {
		return
	}
	a.ev = contract.RunEvent{Kind: kind, Index: index, Call: call, Text: text, At: a.now()}
	a.publish(&a.ev)
}

// appendText extends the newest block when it is of the same kind, so a
// reply alternating thinking and text keeps its order, and returns the
// block's position. A signature ends the thinking block it signs: text
// after it starts the next block, which the provider signs apart.
func (a *assembler) appendText(kind contract.BlockKind, s, sig string) int {
	n := len(a.blocks)
	if n == 0 || a.blocks[n-1].Kind != kind || s != "" && a.blocks[n-1].Signature != "" {
		a.endText()
		a.blocks = append(a.blocks, contract.Block{Kind: kind})
		a.text = append(a.text, deltas{})
		n++
	}
	a.text[n-1].add(s)
	a.tail = n
	if sig != "" {
		a.blocks[n-1].Signature += sig
	}
	return n - 1
}

// addRedacted adds one redacted thinking block. Each chunk is a whole
// block, never merged with its neighbours, since the provider wants each
// back exactly as it sent it; one without data has nothing to send back.
func (a *assembler) addRedacted(data string) {
	if data == "" {
		return
	}
	a.endText()
	a.blocks = append(a.blocks, contract.Block{Kind: contract.BlockRedactedThinking, Signature: data})
	a.text = append(a.text, deltas{})
}

func (a *assembler) startCall(c Chunk) error {
	if _, dup := a.call(c.Index); dup {
		return fmt.Errorf("turn: tool call index %d started twice", c.Index)
	}
	a.endText()
	shown := &contract.ToolCall{ID: a.ownCallID(c.CallID), Name: NormalizeToolName(c.Name, a.known)}
	a.args = append(a.args, callSlot{index: c.Index, pos: len(a.blocks), shown: shown})
	a.blocks = append(a.blocks, contract.Block{Kind: contract.BlockToolCall, Call: shown})
	a.text = append(a.text, deltas{})
	a.tail = len(a.blocks)
	a.emit(contract.EvToolCallDelta, c.Index, shown, "")
	return nil
}

// ownCallID is id, or when a call of the reply already has it, id with
// a suffix no call of the reply has: some servers give parallel calls
// one id, and both the scheduler and the APIs refuse calls that share
// one. Calls without an id keep none: the rules name those after the
// turn and the call's place.
func (a *assembler) ownCallID(id string) string {
	if id == "" || !a.callIDTaken(id) {
		return id
	}
	for n := len(a.args) + 1; ; n++ {
		if own := id + "_" + strconv.Itoa(n); !a.callIDTaken(own) {
			return own
		}
	}
}

func (a *assembler) callIDTaken(id string) bool {
	for _, c := range a.args {
		if c.shown.ID == id {
			return true
		}
	}
	return false
}

func (a *assembler) addArgs(c Chunk) error {
	slot, ok := a.call(c.Index)
	if !ok {
		return fmt.Errorf("turn: arguments for unknown tool call index %d", c.Index)
	}
	a.text[slot.pos].add(c.Text)
	a.tail = slot.pos + 1
	if s := a.text[slot.pos].show(c.Text); s != "" {
		a.emit(contract.EvToolCallDelta, c.Index, slot.shown, s)
	}
	return nil
}

// showHeld publishes what the blocks held back of a character the
// stream never finished, as the reply will have it (U+FFFD), so the
// deltas still spell the reply.
func (a *assembler) showHeld() {
	for i := range a.text {
		a.showHeldAt(i)
	}
}

// endText publishes what the newest block held back, before a new block
// starts, if it is text or thinking: only the newest of those grows, so
// its character stays unfinished, and its deltas carry no index that
// would place them in their block if they came after the next block's.
func (a *assembler) endText() {
	if n := len(a.blocks); n > 0 && a.blocks[n-1].Kind != contract.BlockToolCall {
		a.showHeldAt(n - 1)
	}
}

func (a *assembler) showHeldAt(i int) {
	held := a.text[i].held
	if held == "" {
		return
	}
	a.text[i].held = ""
	switch a.blocks[i].Kind {
	case contract.BlockText:
		a.emit(contract.EvTextDelta, 0, nil, validText(held))
	case contract.BlockThinking:
		a.emit(contract.EvThinkingDelta, 0, nil, validText(held))
	case contract.BlockToolCall:
		for _, c := range a.args {
			if c.pos == i {
				a.emit(contract.EvToolCallDelta, c.index, c.shown, validText(held))
			}
		}
	}
}

// mergeUsage keeps the newest non-zero value of each counter: providers
// report input at the start and output at the end of a stream.
func (a *assembler) mergeUsage(u contract.Usage) {
	set := func(dst *int64, v int64) {
		if v != 0 {
			*dst = v
		}
	}
	set(&a.usage.InputTokens, u.InputTokens)
	set(&a.usage.OutputTokens, u.OutputTokens)
	set(&a.usage.CachedTokens, u.CachedTokens)
	set(&a.usage.ReasoningTokens, u.ReasoningTokens)
}

// reply finishes the turn: joins the deltas, repairs arguments and
// settles the stop reason.
func (a *assembler) reply() (contract.Turn, contract.StopReason) {
	a.showHeld()
	blocks := make([]contract.Block, 0, len(a.blocks))
	// The reply's calls, in one allocation: the blocks pointed at the
	// calls their events showed, which are not to change.
	own := make([]contract.ToolCall, len(a.args))
	calls := 0
	for i, b := range a.blocks {
		s := validText(a.text[i].String())
		switch b.Kind {
		case contract.BlockToolCall:
			call := &own[calls]
			calls++
			*call = *b.Call
			call.ID, call.Name = validText(call.ID), validText(call.Name)
			call.Arguments = s
			// The call the token limit cut keeps its arguments as they
			// came: closing them would run it with the cut text (a path
			// or a command half written) instead of telling the model.
			if cut := a.stop == contract.StopMaxTokens && i == a.tail-1; !cut || isObject(strings.TrimSpace(s)) {
				if fixed, ok := RepairArguments(s); ok {
					call.Arguments = fixed
				}
			}
			b.Call = call
		default:
			if s == "" && b.Signature == "" {
				continue
			}
			b.Text, b.Signature = s, validText(b.Signature)
		}
		blocks = append(blocks, b)
	}
	if calls > 0 {
		blocks = dropNoCalls(blocks, a.known)
		calls = 0
		for _, b := range blocks {
			if b.Kind == contract.BlockToolCall {
				calls++
			}
		}
	}
	stop := a.stop
	if calls == 0 && a.textCalls {
		var ok bool
		if blocks, ok = textToolCall(blocks, a.known); ok {
			calls, stop = 1, contract.StopToolUse
		}
	}
	if calls == 0 && stop == contract.StopToolUse {
		stop = contract.StopEndTurn
	}
	return contract.Turn{Role: contract.RoleAssistant, Blocks: blocks}, settleStop(stop, calls > 0)
}

func settleStop(s contract.StopReason, calls bool) contract.StopReason {
	switch s {
	case contract.StopEndTurn, contract.StopToolUse, contract.StopMaxTokens, contract.StopRefusal:
		return s
	}
	if calls {
		return contract.StopToolUse
	}
	return contract.StopEndTurn
}
