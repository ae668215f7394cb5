package sse

// Event is one event of a stream.
type Event struct {
	// Type is the value of the event's last "event" field, "" when it
	// has none (the format's "message").
	Type string
	// Data is the values of its "data" fields, joined by line feeds.
	Data string
	// HasData says whether it has a "data" field, empty or not; the
	// format dispatches only events that do.
	HasData bool
	// Fields are the event's fields the format gives no meaning to, in
	// the order they came. The format ignores them, but some servers
	// speak through one (llama.cpp's "error"), so an event with such a
	// field is dispatched even without data.
	Fields []Field
}

// Field is a field of an event.
type Field struct{ Name, Value string }

// Field returns the value of the event's last field named name, among
// those the format gives no meaning to, and whether it has one.
func (e Event) Field(name string) (string, bool) {
	for i := len(e.Fields) - 1; i >= 0; i-- {
		if e.Fields[i].Name == name {
			return e.Fields[i].Value, true
		}
	}
	return "", false
}
