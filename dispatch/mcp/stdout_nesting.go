package mcp

// nesting follows the brackets of the message being passed on, outside
// its strings, so that a message a server indents across lines is passed
// on whole: the SDK decodes stdout as a stream of JSON values, and took
// such messages before lines that are no messages were skipped.
type nesting struct {
	depth    int
	inString bool
	escaped  bool
}

// open says whether the message read so far, fed through scan, has yet
// to close.
func (n *nesting) open() bool { return n.depth > 0 }

func (n *nesting) scan(b []byte) {
	for _, c := range b {
		switch {
		case n.escaped:
			n.escaped = false
		case n.inString:
			n.escaped = c == '\\'
			n.inString = c != '"'
		case c == '"':
			n.inString = true
		case c == '{' || c == '[':
			n.depth++
		case c == '}' || c == ']':
			n.depth--
		}
	}
}
