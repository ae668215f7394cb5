package wire

import (
	"fmt"
	"net/http"
)

// Protocol names a client protocol the Handler speaks.
type Protocol string

const (
	// ProtocolAGUI is AG-UI: RunAgentInput in, AG-UI events over SSE out.
	ProtocolAGUI Protocol = "ag-ui"
	// ProtocolAISDK is the Vercel AI SDK's chat transport: {id, messages}
	// in, the UI message stream over SSE out.
	ProtocolAISDK Protocol = "ai-sdk"
)

// requestProtocol reads the protocol query parameter, which overrides the
// handler's default. NDJSON is no protocol name but an Accept header, so
// a client that names it is told so.
func (h *Handler) requestProtocol(r *http.Request) (Protocol, error) {
	q := r.URL.Query().Get("protocol")
	switch Protocol(q) {
	case "":
		return h.opts.Protocol, nil
	case ProtocolAGUI, ProtocolAISDK:
		return Protocol(q), nil
	}
	return "", fmt.Errorf("wire: protocol %q is neither %q nor %q (for NDJSON, send Accept: application/x-ndjson)", q, ProtocolAGUI, ProtocolAISDK)
}
