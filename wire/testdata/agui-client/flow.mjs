// Drives a thread through a sequence of steps with the official AG-UI
// client, keeping its messages as a page does, and prints them, with what
// went wrong, as JSON.
//
//   node flow.mjs URL THREAD STEP...
//
// Each STEP is one of
//   user:TEXT      add a user message and run the agent
//   answer:TEXT    add a tool message answering the newest tool call of
//                  the last assistant message, and run the agent
//   answer@ID:TEXT the same for the tool call ID
//   reload         a new HttpAgent that starts from the messages kept
//   bg-user:TEXT   user:, but the run goes on in the background
//   steer:TEXT     once the background run's stream showed a tool
//                  starting, detach from it (detachActiveRun), add a user
//                  message and run the agent: a message sent while the
//                  run is in flight
//   cut:MARKER     the next run's stream is dropped after the first SSE
//                  block holding MARKER, and the client reconnects with
//                  Last-Event-ID, as run.mjs does
// The messages to start from come from the file in MESSAGES, when set,
// and are written back there at the end.
import { HttpAgent } from "@ag-ui/client";
import { readFileSync, writeFileSync, existsSync } from "node:fs";

const [url, threadId, ...steps] = process.argv.slice(2);
const file = process.env.MESSAGES;
let initial = file && existsSync(file) ? JSON.parse(readFileSync(file, "utf8")) : [];

const errors = [];
const thrown = [];
const runs = [];
let n = 0;
// A dropped connection also rejects the response body's pipe, outside
// runAgent: it is one more thing that went wrong, not a crash.
process.on("unhandledRejection", (err) => thrown.push(String(err?.message ?? err)));
const onRunErrorEvent = ({ event }) => {
  errors.push(event.message);
};
let cutAfter = "";
let cut = false;
let lastId = "";
function cuttingFetch(input, init) {
  return fetch(input, init).then((res) => {
    if (!res.body) return res;
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = "";
    const body = res.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          pending += decoder.decode(chunk, { stream: true });
          let end;
          while ((end = pending.indexOf("\n\n")) >= 0) {
            const block = pending.slice(0, end + 2);
            pending = pending.slice(end + 2);
            for (const line of block.split("\n")) {
              if (line.startsWith("id: ")) lastId = line.slice(4);
            }
            controller.enqueue(encoder.encode(block));
            if (cutAfter && !cut && block.includes(cutAfter)) {
              cut = true;
              controller.terminate();
              return;
            }
          }
        },
      }),
    );
    return new Response(body, { status: res.status, headers: res.headers });
  });
}

class ResumingAgent extends HttpAgent {
  connect(input) {
    return this.run(input);
  }
}

let agent = new HttpAgent({ url, threadId, initialMessages: initial, fetch: cuttingFetch });
const resumedFrom = [];

let toolStarted;
let toolStartedSeen = new Promise((r) => (toolStarted = r));
const onCustomEvent = ({ event }) => {
  if (event.name === "baton.tool_started") toolStarted();
};
let background;

async function run() {
  cut = false;
  try {
    await agent.runAgent({}, { onRunErrorEvent, onCustomEvent });
  } catch (err) {
    if (!cut) thrown.push(String(err?.message ?? err));
  }
  if (cutAfter) {
    if (!cut) thrown.push("the stream ended before " + cutAfter);
    resumedFrom.push(lastId);
    const again = new ResumingAgent({ url, threadId, initialMessages: agent.messages, headers: { "Last-Event-ID": lastId } });
    try {
      await again.connectAgent({}, { onRunErrorEvent });
    } catch (err) {
      thrown.push(String(err?.message ?? err));
    }
    agent = new HttpAgent({ url, threadId, initialMessages: again.messages, fetch: cuttingFetch });
    cutAfter = "";
  }
  runs.push(structuredClone(agent.messages));
}

for (const step of steps) {
  n++;
  if (step === "reload") {
    agent = new HttpAgent({ url, threadId, initialMessages: structuredClone(agent.messages), fetch: cuttingFetch });
    continue;
  }
  if (step.startsWith("cut:")) {
    cutAfter = step.slice(4);
    continue;
  }
  const colon = step.indexOf(":");
  const verb = step.slice(0, colon);
  const text = step.slice(colon + 1);
  if (verb === "bg-user") {
    agent.addMessage({ id: `u${n}-${Date.now()}`, role: "user", content: text });
    background = run();
    continue;
  }
  if (verb === "steer") {
    await toolStartedSeen;
    await agent.detachActiveRun();
    await background;
    agent.addMessage({ id: `u${n}-${Date.now()}`, role: "user", content: text });
  } else if (verb === "user") {
    agent.addMessage({ id: `u${n}-${Date.now()}`, role: "user", content: text });
  } else if (verb.startsWith("answer")) {
    let id = verb.startsWith("answer@") ? verb.slice(7) : undefined;
    if (!id) {
      const last = agent.messages.findLast((m) => m.role === "assistant" && m.toolCalls?.length);
      id = last?.toolCalls?.at(-1)?.id;
    }
    if (!id) throw new Error("nothing to answer: " + JSON.stringify(agent.messages));
    agent.addMessage({ id: `answer-${n}-${Date.now()}`, role: "tool", toolCallId: id, content: text });
  } else {
    throw new Error("unknown step " + step);
  }
  await run();
}
if (file) writeFileSync(file, JSON.stringify(agent.messages));
process.stdout.write(JSON.stringify({ messages: agent.messages, errors, thrown, runs, resumedFrom }) + "\n");
