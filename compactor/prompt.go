package compactor

import (
	"fmt"
	"strings"

	"github.com/batonrt/baton/contract"
)

// MaxPromptOutput bounds how much of one tool output, and of one tool
// call's arguments, SummaryPrompt quotes; the head nearly always says what
// mattered, and without the bound a summary request could be nearly as big
// as the history it condenses.
const MaxPromptOutput = 2000

// MaxPromptText bounds how much of one text block SummaryPrompt quotes. It
// is larger than MaxPromptOutput because what the user and the assistant
// wrote carries the goals and decisions a summary must keep.
const MaxPromptText = 4 * MaxPromptOutput

const summaryInstruction = `You are condensing the earlier part of a conversation between a user and an AI assistant that uses tools, so the assistant can keep working within its context window. The summary will replace the transcript below; the newest turns stay verbatim after it.

Write a concise summary that keeps:
- the user's goals, requests and constraints, in their own words where they matter;
- decisions made and the reasons given;
- facts learned from tools: names, paths, identifiers, values, errors;
- work done so far, and what remains open or was promised next.
Drop pleasantries, repetition and output that led nowhere. Earlier summaries in the transcript are part of the record: fold them in. Do not call tools. Reply with the summary only.

<transcript>
`

// SummaryPrompt is the instruction the conductor sends to the model to
// summarise turns: what to keep, then the turns as a plain transcript.
// Thinking, redacted or not, is left out (it is the model's scratch work),
// archive markers too (they only point at stored turns), tool outputs,
// call arguments and image addresses are clipped to MaxPromptOutput bytes
// and text blocks to MaxPromptText bytes, each on a character boundary
// with a note of how much was cut; an image sent inline is named by its
// size only.
func SummaryPrompt(turns []contract.Turn) string {
	var b strings.Builder
	b.WriteString(summaryInstruction)
	for _, t := range turns {
		writeTurn(&b, t)
	}
	b.WriteString("</transcript>\n")
	return b.String()
}

func writeTurn(b *strings.Builder, t contract.Turn) {
	switch t.Mark {
	case contract.MarkArchive:
		return
	case contract.MarkSummary:
		fmt.Fprintf(b, "[earlier summary]\n%s\n\n", t.Text())
		return
	}
	for _, blk := range t.Blocks {
		writeBlock(b, t.Role, blk)
	}
}

func writeBlock(b *strings.Builder, role contract.Role, blk contract.Block) {
	switch {
	case blk.Kind == contract.BlockText:
		fmt.Fprintf(b, "[%s]\n%s\n\n", role, clip(blk.Text, MaxPromptText))
	case blk.Kind == contract.BlockToolCall && blk.Call != nil:
		fmt.Fprintf(b, "[%s called %s]\n%s\n\n", role, blk.Call.Name, clip(blk.Call.Arguments, MaxPromptOutput))
	case blk.Kind == contract.BlockToolResult && blk.Result != nil:
		label := "result"
		if blk.Result.IsError {
			label = "error"
		}
		fmt.Fprintf(b, "[%s %s]\n%s\n\n", blk.Result.Name, label, clip(blk.Result.Content, MaxPromptOutput))
	case blk.Kind == contract.BlockImage && blk.Image != nil:
		fmt.Fprintf(b, "[%s image%s]\n\n", role, imageRef(blk.Image.URI))
	}
}

// imageRef names an image for the transcript. An image sent inline as a
// data URI is only said to be there: its base64 text means nothing to a
// summariser and would make the request as large as the image.
func imageRef(uri string) string {
	if strings.HasPrefix(uri, "data:") {
		return fmt.Sprintf(": inline data, %d bytes", len(uri))
	}
	return " " + clip(uri, MaxPromptOutput)
}

// clip cuts s to max bytes on a rune boundary and says how much it cut.
func clip(s string, max int) string {
	if len(s) <= max {
		return s
	}
	end := runeStart(s, max)
	return fmt.Sprintf("%s\n[... %d more bytes]", s[:end], len(s)-end)
}
