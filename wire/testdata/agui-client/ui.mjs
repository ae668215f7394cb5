// Drives baton's wire handler with the AI SDK's own chat transport and
// stream reader (the `ai` package) and prints the assistant message they
// rebuilt, as JSON, for the Go test to compare.
//
//   node ui.mjs URL CHAT chat     POST the chat request, read the stream
//   node ui.mjs URL CHAT resume   GET the transport's resume request for
//                                 the chat's run in flight
import { DefaultChatTransport, readUIMessageStream } from "ai";

const [url, chatId, mode] = process.argv.slice(2);

// The transport's fetch hook checks the protocol header and records every
// chunk type, so the test sees what came over the wire.
const headers = [];
const transport = new DefaultChatTransport({
  api: url,
  fetch: async (input, init) => {
    const res = await fetch(input, init);
    headers.push(res.headers.get("x-vercel-ai-ui-message-stream"));
    return res;
  },
});

let chunks;
if (mode === "resume") {
  chunks = await transport.reconnectToStream({ chatId });
  if (chunks === null) throw new Error("the server had no stream to resume");
} else {
  const user = { id: "u1", role: "user", parts: [{ type: "text", text: "weather in Paris?" }] };
  chunks = await transport.sendMessages({
    chatId,
    messages: [user],
    trigger: "submit-message",
    messageId: undefined,
    abortSignal: undefined,
  });
}

const types = [];
const errors = [];
const recorded = chunks.pipeThrough(
  new TransformStream({
    transform(chunk, controller) {
      types.push(chunk.type);
      controller.enqueue(chunk);
    },
  }),
);
let message;
for await (const m of readUIMessageStream({ stream: recorded, onError: (e) => errors.push(String(e)) })) {
  message = m;
}
process.stdout.write(JSON.stringify({ message, errors, types, headers }) + "\n");
