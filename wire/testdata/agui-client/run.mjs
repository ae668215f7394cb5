// Drives baton's wire handler with the official AG-UI client and prints
// the messages the client rebuilt, as JSON, for the Go test to compare.
//
//   node run.mjs URL THREAD full       one run, start to end
//   node run.mjs URL THREAD reconnect  disconnect when the tool starts,
//                                      then resume with Last-Event-ID
import { HttpAgent } from "@ag-ui/client";

const [url, threadId, mode] = process.argv.slice(2);

// lastId remembers the newest SSE id the client received, through the
// client's own fetch hook.
let lastId = "";
function sniffingFetch(input, init) {
  return fetch(input, init).then((res) => {
    if (!res.body) return res;
    const decoder = new TextDecoder();
    let pending = "";
    const body = res.body.pipeThrough(
      new TransformStream({
        transform(chunk, controller) {
          pending += decoder.decode(chunk, { stream: true });
          const lines = pending.split("\n");
          pending = lines.pop();
          for (const line of lines) {
            if (line.startsWith("id: ")) lastId = line.slice(4);
          }
          controller.enqueue(chunk);
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

const user = { id: "u1", role: "user", content: "weather in Paris?" };
const agent = new HttpAgent({ url, threadId, initialMessages: [user], fetch: sniffingFetch });
const errors = [];
let cut = false;
try {
  await agent.runAgent(
    {},
    {
      onCustomEvent({ event }) {
        if (mode === "reconnect" && event.name === "baton.tool_started") {
          cut = true;
          agent.abortRun();
        }
      },
      onRunErrorEvent({ event }) {
        // Aborting our own fetch surfaces as a client-side run error.
        if (!cut) errors.push(event.message);
      },
    },
  );
} catch (err) {
  if (!cut) throw err;
}

let messages = agent.messages;
let resumedFrom = "";
if (mode === "reconnect") {
  if (!cut) throw new Error("the stream ended before the tool started");
  resumedFrom = lastId;
  const again = new ResumingAgent({
    url,
    threadId,
    initialMessages: agent.messages,
    headers: { "Last-Event-ID": lastId },
  });
  await again.connectAgent({}, {
    onRunErrorEvent({ event }) {
      errors.push(event.message);
    },
  });
  messages = again.messages;
}
process.stdout.write(JSON.stringify({ messages, errors, resumedFrom }) + "\n");
