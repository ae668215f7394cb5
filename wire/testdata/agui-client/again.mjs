// Drives baton's wire handler with the official clients when a post's
// stream breaks before its end and the client posts the same message
// again, and prints the messages each client was left with, as JSON.
//
//   node again.mjs URL THREAD agui  the AG-UI client runs the agent and
//                                   its stream is cut after the first
//                                   text; a client that holds only the
//                                   user message posts the same
//                                   RunAgentInput (runId, messages) again
//   node again.mjs URL THREAD ui    the AI SDK's Chat sends a message and
//                                   its stream is cut the same way; its
//                                   regenerate() sends the same user
//                                   message, same id, again
//   node again.mjs URL THREAD ui-failed
//                                   the same, the stream whole but telling
//                                   of the run's error
import { HttpAgent } from "@ag-ui/client";
import { AbstractChat, DefaultChatTransport } from "ai";
import { chatState } from "./chatstate.mjs";

const [url, threadId, mode] = process.argv.slice(2);

// cuttingFetch ends the first response's body right after the bytes
// that carry its first text, as a dropped connection would; later
// responses pass whole.
let cuts = mode === "ui-failed" ? 0 : 1;
let cut = false;
function cuttingFetch(input, init) {
  return fetch(input, init).then((res) => {
    if (!res.body || cuts === 0) return res;
    cuts--;
    const decoder = new TextDecoder();
    const body = res.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          controller.enqueue(chunk);
          const text = decoder.decode(chunk, { stream: true });
          if (text.includes('"TEXT_MESSAGE_CONTENT"') || text.includes('"text-delta"')) {
            cut = true;
            controller.terminate();
          }
        },
      }),
    );
    return new Response(body, { status: res.status, headers: res.headers });
  });
}

const errors = [];
let messages;
if (mode === "agui") {
  const user = { id: "u1", role: "user", content: "hi" };
  const first = new HttpAgent({ url, threadId, initialMessages: [user], fetch: cuttingFetch });
  try {
    await first.runAgent({ runId: "client-run-1" });
  } catch (err) {
    // A stream cut before RUN_FINISHED is an error to the client.
    if (!cut) throw err;
  }
  if (!cut) throw new Error("the first stream was not cut");
  const again = new HttpAgent({ url, threadId, initialMessages: [user] });
  try {
    await again.runAgent({ runId: "client-run-1" }, { onRunErrorEvent: ({ event }) => errors.push(event.message) });
  } catch (err) {
    errors.push(String(err));
  }
  messages = again.messages;
} else if (mode === "ui" || mode === "ui-failed") {
  let retrying = false;
  let failed = false;
  const state = chatState();
  const chat = new AbstractChat({
    id: threadId,
    transport: new DefaultChatTransport({ api: url, fetch: cuttingFetch }),
    state,
    onError: (e) => (retrying ? errors.push(String(e)) : (failed = true)),
  });
  await chat.sendMessage({ text: "hi" });
  if (mode === "ui" && !cut) throw new Error("the first stream was not cut");
  if (mode === "ui-failed" && !failed) throw new Error("the first run did not fail");
  // What the broken or failed stream left is not the reply: the Chat's
  // retry.
  retrying = true;
  await chat.regenerate();
  messages = state.messages.map((m) => ({
    role: m.role,
    text: m.parts
      .filter((p) => p.type === "text")
      .map((p) => p.text)
      .join(""),
  }));
} else {
  throw new Error(`unknown mode ${mode}`);
}
process.stdout.write(JSON.stringify({ messages, errors }) + "\n");
