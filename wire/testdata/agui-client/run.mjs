// Drives baton's wire handler with the official AG-UI client and prints
// the messages the client rebuilt, as JSON, for the Go test to compare.
//
//   node run.mjs URL THREAD full       one run, start to end
//   node run.mjs URL THREAD reconnect  drop the connection right after the
//                                      tool starts, then resume with
//                                      Last-Event-ID
//   node run.mjs URL THREAD reconnect-reasoning, reconnect-text,
//                           reconnect-args
//                                      the same, dropped in the middle of
//                                      the reasoning, the text, or the
//                                      tool call's arguments
import { HttpAgent } from "@ag-ui/client";

const [url, threadId, mode] = process.argv.slice(2);

// Where each reconnect mode drops the connection: after the first SSE
// block that holds this.
const cutAfter = {
  reconnect: '"baton.tool_started"',
  "reconnect-reasoning": '"REASONING_MESSAGE_CONTENT"',
  "reconnect-text": '"TEXT_MESSAGE_CONTENT"',
  "reconnect-args": '"TOOL_CALL_ARGS"',
}[mode];
if (mode !== "full" && !cutAfter) throw new Error(`unknown mode ${mode}`);

// The client's own fetch hook sees the raw SSE: it remembers the newest
// id, counts the MESSAGES_SNAPSHOTs and, in a reconnect mode, ends the
// stream after the block it names as a dropped connection would.
let lastId = "";
let snapshots = 0;
let cut = false;
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
            if (block.includes('"MESSAGES_SNAPSHOT"')) snapshots++;
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

const errors = [];
const onRunErrorEvent = ({ event }) => {
  errors.push(event.message);
};
const user = { id: "u1", role: "user", content: "weather in Paris?" };
const agent = new HttpAgent({ url, threadId, initialMessages: [user], fetch: cuttingFetch });
try {
  await agent.runAgent({}, { onRunErrorEvent });
} catch (err) {
  // A stream cut before RUN_FINISHED is an error to the client; expected.
  if (!cut) throw err;
}

let messages = agent.messages;
// The ids of the messages the client held when its stream was cut.
const idsBefore = agent.messages.map((m) => m.id);
let resumedFrom = "";
if (cutAfter) {
  if (!cut) throw new Error(`the stream ended before ${cutAfter}`);
  resumedFrom = lastId;
  const again = new ResumingAgent({
    url,
    fetch: cuttingFetch,
    threadId,
    initialMessages: agent.messages,
    headers: { "Last-Event-ID": lastId },
  });
  await again.connectAgent({}, { onRunErrorEvent });
  messages = again.messages;
}
process.stdout.write(JSON.stringify({ messages, errors, resumedFrom, snapshots, idsBefore }) + "\n");
