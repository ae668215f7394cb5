// Drives a chat through a sequence of steps with the AI SDK's own Chat
// class and transport, as a page does, and prints the chat's messages,
// with what went wrong, as JSON.
//
//   node flow-ui.mjs URL CHAT STEP...
//
// Each STEP is one of
//   user:TEXT      send a user message, wait for the stream to end
//   approve:yes|no answer the newest part in approval-requested with
//                  addToolApprovalResponse; the chat sends it
//   answer:TEXT    answer the newest part waiting for input with
//                  addToolOutput; the chat sends it
//   resume         the chat's resumeStream (the transport's GET)
//   reload         a new Chat that starts from the messages kept
// The messages to start from come from the file in MESSAGES, when set,
// and are written back there at the end.
import { AbstractChat, DefaultChatTransport } from "ai";
import { readFileSync, writeFileSync, existsSync } from "node:fs";
import { chatState } from "./chatstate.mjs";

const [url, chatId, ...steps] = process.argv.slice(2);
const file = process.env.MESSAGES;
const initial = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];

const errors = [];
const types = [];
const transport = new DefaultChatTransport({
  api: url,
  fetch: async (input, init) => {
    const res = await fetch(input, init);
    if (!res.body) return res;
    // Record every chunk type that came over the wire.
    const dec = new TextDecoder();
    let pending = "";
    const body = res.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          pending += dec.decode(chunk, { stream: true });
          let end;
          while ((end = pending.indexOf("\n\n")) >= 0) {
            const block = pending.slice(0, end);
            pending = pending.slice(end + 2);
            for (const line of block.split("\n")) {
              if (line.startsWith("data: ") && line !== "data: [DONE]") {
                try {
                  types.push(JSON.parse(line.slice(6)).type);
                } catch {}
              }
            }
          }
          controller.enqueue(chunk);
        },
      }),
    );
    return new Response(body, { status: res.status, headers: res.headers });
  },
});

let finished;
let done;
let auto = false;
function newChat(messages) {
  const state = chatState(messages);
  const chat = new AbstractChat({
    id: chatId,
    transport,
    state,
    onError: (e) => errors.push(String(e)),
    onFinish: () => finished(),
    sendAutomaticallyWhen: () => {
      const go = auto;
      auto = false;
      return go;
    },
  });
  return { chat, state };
}

function arm() {
  done = new Promise((r) => (finished = r));
}

let { chat, state } = newChat(initial);
for (const step of steps) {
  if (step === "reload") {
    ({ chat, state } = newChat(structuredClone(state.messages)));
    continue;
  }
  if (step === "resume") {
    arm();
    await chat.resumeStream();
    continue;
  }
  const colon = step.indexOf(":");
  const verb = step.slice(0, colon);
  const text = step.slice(colon + 1);
  arm();
  if (verb === "user") {
    await chat.sendMessage({ text });
    await done;
  } else if (verb === "approve") {
    const part = state.messages.at(-1)?.parts.findLast((p) => p.state === "approval-requested");
    if (!part) throw new Error("no part waits for approval: " + JSON.stringify(state.messages));
    auto = true;
    await chat.addToolApprovalResponse({ id: part.approval.id, approved: text === "yes" });
    await done;
  } else if (verb === "answer") {
    const part = state.messages.at(-1)?.parts.findLast((p) => p.type.startsWith("tool-") && p.state === "input-available");
    if (!part) throw new Error("no part waits for input: " + JSON.stringify(state.messages));
    auto = true;
    await chat.addToolOutput({ tool: part.type.slice(5), toolCallId: part.toolCallId, output: text });
    await done;
  } else {
    throw new Error("unknown step " + step);
  }
}
if (file) writeFileSync(file, JSON.stringify(state.messages));
process.stdout.write(JSON.stringify({ messages: state.messages, errors, types }) + "\n");
