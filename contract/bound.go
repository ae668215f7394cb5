package contract

// escapedBound is the most bytes one byte of a string encodes to: a
// control character, or a byte that is not UTF-8, becomes a six-byte \u
// escape.
const escapedBound = 6

// fieldBound bounds the bytes of one field besides its string's: its
// name, quotes and punctuation, or a number or flag whole.
const fieldBound = 48

// EncodedBound returns a bound on the length of r's canonical bytes,
// found without encoding r, and whether it knows r's signal: it knows
// those RecordAlwaysEncodes names, the records a store may keep
// unencoded until read, and so must size before taking them.
func EncodedBound(r Record) (int, bool) {
	n := 4*fieldBound + stringBound(r.Effects)
	switch s := r.Signal.(type) {
	case ModelReplied:
		return n + stringBound(string(s.SignalKind())) + modelRepliedBound(&s), true
	case ToolSettled:
		return n + stringBound(string(s.SignalKind())) + toolSettledBound(&s), true
	}
	return 0, false
}

func stringBound(s string) int { return escapedBound*len(s) + fieldBound }

func stringsBound(ss []string) int {
	n := fieldBound
	for _, s := range ss {
		n += stringBound(s)
	}
	return n
}

func modelRepliedBound(s *ModelReplied) int {
	n := 16*fieldBound + turnBound(&s.Reply) + stringBound(string(s.Stop)) +
		stringsBound(s.RewrittenBy) + stringBound(s.OutputError)
	for _, k := range s.Keys {
		n += 2*fieldBound + stringsBound(k.Keys)
	}
	return n
}

func toolSettledBound(s *ToolSettled) int {
	return 8*fieldBound + stringBound(s.CallID) + stringBound(s.Outcome.Content) +
		stringBound(s.Arguments) + stringsBound(s.RewrittenBy)
}

func turnBound(t *Turn) int {
	n := 8*fieldBound + stringBound(string(t.Role)) + stringBound(string(t.Mark)) + stringBound(t.ClientID)
	for i := range t.Blocks {
		n += blockBound(&t.Blocks[i])
	}
	return n
}

func blockBound(k *Block) int {
	n := 4*fieldBound + stringBound(string(k.Kind)) + stringBound(k.Text) + stringBound(k.Signature)
	if c := k.Call; c != nil {
		n += 2*fieldBound + stringBound(c.ID) + stringBound(c.Name) + stringBound(c.Arguments)
	}
	if r := k.Result; r != nil {
		n += 2*fieldBound + stringBound(r.CallID) + stringBound(r.Name) + stringBound(r.Content)
	}
	if im := k.Image; im != nil {
		n += 2*fieldBound + stringBound(im.URI) + stringBound(im.MediaType)
	}
	return n
}
