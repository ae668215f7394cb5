package anthropic

import (
	"strconv"

	sdk "github.com/anthropics/anthropic-sdk-go/v2"
)

// uniqueCallIDs gives each tool_use block of msgs an id no other has,
// and its tool_result the same: the API refuses a request in which two
// calls share an id, which compatible servers write in every reply
// (call_0) or twice in one. The first call of an id keeps it. The
// results of an assistant message's calls are in the message after it,
// in call order, so the n-th result of an id answers its n-th call.
func uniqueCallIDs(msgs []sdk.MessageParam) {
	used := map[string]bool{}
	for i, m := range msgs {
		if m.OfAssistant == nil {
			continue
		}
		var sent map[string][]string // an id's calls' ids as sent, in order
		for _, b := range m.OfAssistant.Content {
			u := b.OfToolUse
			if u == nil {
				continue
			}
			id := u.ID
			for n := 2; used[u.ID]; n++ {
				u.ID = id + "_" + strconv.Itoa(n)
			}
			used[u.ID] = true
			if sent == nil {
				sent = map[string][]string{}
			}
			sent[id] = append(sent[id], u.ID)
		}
		if sent == nil || i+1 == len(msgs) || msgs[i+1].OfUser == nil {
			continue
		}
		for _, b := range msgs[i+1].OfUser.Content {
			r := b.OfToolResult
			if r == nil || len(sent[r.ToolUseID]) == 0 {
				continue
			}
			ids := sent[r.ToolUseID]
			sent[r.ToolUseID] = ids[1:]
			r.ToolUseID = ids[0]
		}
	}
}
