// Drives baton's wire handler with the AI SDK's own chat transport and
// stream reader (the `ai` package) and prints the assistant message they
// rebuilt, as JSON, for the Go test to compare.
//
//   node ui.mjs URL CHAT chat     POST the chat request, read the stream
//   node ui.mjs URL CHAT resume   GET the transport's resume request for
//                                 the chat's run in flight
//   node ui.mjs URL CHAT ask ANSWER
//                                 send with the AI SDK's Chat; when the
//                                 message ends on a tool part waiting for
//                                 input (a question), answer it with
//                                 addToolOutput and let the chat send it
//   node ui.mjs URL CHAT approve yes|no
//                                 the same for a part in approval-requested,
//                                 answered with addToolApprovalResponse
//   node ui.mjs URL CHAT steer TEXT
//                                 the same, but the part in approval-requested
//                                 is left as it is and TEXT sent instead
//   node ui.mjs URL CHAT correct  send with the AI SDK's Chat, applying the
//                                 correction a finish may carry in onFinish
//                                 as wire/aisdk's doc says a page does
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
  readUIMessageStream,
} from "ai";
import { chatState } from "./chatstate.mjs";

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

if (mode === "correct") {
  await correct();
  process.exit(0);
}

if (mode === "ask" || mode === "approve" || mode === "steer") {
  await ask(mode, process.argv[5]);
  process.exit(0);
}

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

// ask drives the chat the way a page does: the Chat class keeps the
// messages, and addToolOutput answers the newest open tool part (a
// delegated run's question comes after its delegate call's part).
async function ask(mode, answer) {
  const state = chatState();
  const errors = [];
  let finished;
  let done = new Promise((r) => (finished = r));
  const chat = new AbstractChat({
    id: chatId,
    transport,
    state,
    onError: (e) => errors.push(String(e)),
    onFinish: () => finished(),
    sendAutomaticallyWhen:
      mode === "ask" ? lastAssistantMessageIsCompleteWithToolCalls : lastAssistantMessageIsCompleteWithApprovalResponses,
  });
  await chat.sendMessage({ text: "plan a trip" });
  await done;
  const waiting = mode === "ask" ? "input-available" : "approval-requested";
  const last = state.messages.at(-1);
  const part = last?.parts.findLast((p) => p.type.startsWith("tool-") && p.state === waiting);
  if (!part) throw new Error("no tool part is " + waiting + ": " + JSON.stringify(state.messages));
  const asked = structuredClone(part);
  done = new Promise((r) => (finished = r));
  if (mode === "steer") {
    await chat.sendMessage({ text: answer });
  } else if (mode === "approve") {
    await chat.addToolApprovalResponse({ id: part.approval.id, approved: answer === "yes" });
  } else {
    await chat.addToolOutput({ tool: part.type.slice(5), toolCallId: part.toolCallId, output: answer });
  }
  await done;
  process.stdout.write(JSON.stringify({ message: state.messages.at(-1), asked, errors, headers, types: [] }) + "\n");
}

// correct sends one message with the Chat and applies the correction the
// stream's finish carries, as wire/aisdk's doc shows a page doing it.
async function correct() {
  const state = chatState();
  const errors = [];
  let finished;
  const done = new Promise((r) => (finished = r));
  let corrected = false;
  const chat = new AbstractChat({
    id: chatId,
    transport,
    state,
    onError: (e) => errors.push(String(e)),
    onFinish: ({ message }) => {
      const fix = message.metadata?.baton;
      if (fix?.corrected) {
        corrected = true;
        const i = chat.messages.findIndex((m) => m.id === message.id);
        if (fix.message && i >= 0) chat.messages = chat.messages.with(i, fix.message);
        else errors.push("the correction has no message to apply");
      }
      finished();
    },
  });
  await chat.sendMessage({ text: "hi" });
  await done;
  process.stdout.write(JSON.stringify({ message: state.messages.at(-1), corrected, errors, headers, types: [] }) + "\n");
}
