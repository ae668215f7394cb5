// Drives threads of one `baton serve` process, one after another, with
// the official AG-UI client, while the test kills the process with
// SIGKILL and starts it again on the same address and store. A client
// whose stream breaks keeps the messages it has and reconnects with the
// newest SSE id it got (Last-Event-ID), as an EventSource would; one
// whose run was never recorded (404) runs the agent again. It reports
// every SSE block it takes on stderr ("frame THREAD N", N counting from
// 1 over all the thread's streams) and prints, per thread, the client's
// messages, as JSON lines.
//
//   node killed.mjs BASE '["thread", ...]'
import { HttpAgent } from "@ag-ui/client";

const [base, threadsArg] = process.argv.slice(2);
const threads = JSON.parse(threadsArg);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ResumingAgent extends HttpAgent {
  connect(input) {
    return this.run(input);
  }
}

// countingFetch passes the response on a whole SSE block at a time,
// notes each block's id, whether the stream got to RUN_FINISHED and
// whether the connection broke (the client then sees the stream end
// after the whole blocks it got).
function countingFetch(state) {
  return async (input, init) => {
    const res = await fetch(input, init);
    state.status = res.status;
    if (!res.ok || !res.body) return res;
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    const encoder = new TextEncoder();
    let pending = "";
    const body = new ReadableStream({
      async pull(controller) {
        let chunk;
        try {
          chunk = await reader.read();
        } catch {
          state.cut = true;
          controller.close();
          return;
        }
        if (chunk.done) {
          controller.close();
          return;
        }
        pending += decoder.decode(chunk.value, { stream: true });
        let end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const block = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          for (const line of block.split("\n")) {
            if (line.startsWith("id:")) state.lastId = line.slice(3).trim();
          }
          if (block.includes('"RUN_FINISHED"')) state.finished = true;
          controller.enqueue(encoder.encode(block));
          state.frames++;
          process.stderr.write(`frame ${state.thread} ${state.frames}\n`);
        }
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

async function drive(threadId) {
  const user = { id: "u1", role: "user", content: "look around" };
  const state = { thread: threadId, finished: false, status: 0, cut: false, frames: 0, lastId: "" };
  const errors = [];
  const lastIds = [];
  const onRunErrorEvent = ({ event }) => errors.push(event.message);
  let started = false;
  let messages = [user];
  let attempts = 0;
  while (!state.finished && attempts < 400) {
    attempts++;
    state.status = 0;
    state.cut = false;
    let agent;
    try {
      if (!started) {
        agent = new HttpAgent({ url: base, threadId, initialMessages: [user], fetch: countingFetch(state) });
        await agent.runAgent({}, { onRunErrorEvent });
      } else {
        const last = state.lastId || "0";
        lastIds.push(last);
        agent = new ResumingAgent({
          url: base,
          threadId,
          initialMessages: messages,
          headers: { "Last-Event-ID": last },
          fetch: countingFetch(state),
        });
        await agent.connectAgent({}, { onRunErrorEvent });
      }
    } catch (err) {
      // A broken stream or a refused connection is the test's doing; any
      // other failure of a stream that came whole is the client's
      // complaint about what it got.
      if (state.status === 200 && !state.cut) errors.push(String(err));
    }
    if (state.status === 200) {
      started = true;
      messages = agent.messages;
    } else if (state.status === 404) {
      // The process died before it recorded the run: run it again.
      started = false;
      messages = [user];
    } else if (!started) {
      // The post broke before an answer: the run may have been recorded,
      // and posting the message again would steer it, so resume first.
      started = true;
    }
    if (!state.finished) await sleep(20);
  }
  return { thread: threadId, messages, errors, attempts, lastIds, finished: state.finished };
}

for (const t of threads) {
  const r = await drive(t);
  process.stdout.write(JSON.stringify(r) + "\n");
}
