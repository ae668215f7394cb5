package track

import "strings"

// Part is one streamed part of a model call: its reasoning or its text.
type Part struct {
	// Open is set from the part's first delta until the encoder closes it.
	Open bool
	// Sent is set once the part has streamed in the current attempt.
	Sent     bool
	streamed strings.Builder
	sum      sum
}

// Start marks the part open and sent; it reports whether it was closed.
func (p *Part) Start() bool {
	was := p.Open
	p.Open, p.Sent = true, true
	return !was
}

// Append records text the part streamed.
func (p *Part) Append(text string) {
	p.streamed.WriteString(text)
	p.sum.add(text)
}

// Rest is what final holds beyond the streamed text, and whether the
// streamed text is where final starts (so that sending the rest makes the
// client's part equal final).
func (p *Part) Rest(final string) (rest string, ok bool) {
	s := p.streamed.String()
	if !strings.HasPrefix(final, s) {
		return "", false
	}
	return final[len(s):], true
}

func (p *Part) reset() {
	p.Open, p.Sent = false, false
	p.streamed.Reset()
	p.sum = 0
}
