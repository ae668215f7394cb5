// Drives threads of a cluster of baton serve processes with the official
// AG-UI client, each request to a node picked at random, while the test
// kills nodes: a client whose stream breaks reconnects to a node with
// Last-Event-ID 0 and rebuilds the whole conversation from what that node
// replays (the text of a reply cut off with its node was never recorded,
// and the resumed run streams the reply again, so the client drops what
// it had), and one whose run was never recorded starts it again. A post
// that broke before its answer is followed by a resume, never by the
// same post, which would steer the run if it was recorded. It
// prints, per thread, the messages the client rebuilt, as JSON lines.
//
//   node cluster.mjs '{"urls": [...], "threads": [...]}'
import { HttpAgent } from "@ag-ui/client";

const { urls, threads } = JSON.parse(process.argv[2]);
const pick = () => urls[Math.floor(Math.random() * urls.length)];
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class ResumingAgent extends HttpAgent {
  connect(input) {
    return this.run(input);
  }
}

// trackingFetch notes the response's status and whether the stream got
// to RUN_FINISHED; a connection that breaks ends the client's stream
// after the whole SSE blocks it got.
function trackingFetch(state) {
  return async (input, init) => {
    const res = await fetch(input, init);
    state.status = res.status;
    if (!res.ok || !res.body) return res;
    // Tells the test which node a stream is open on, and when it closes,
    // so that its kills cut streams.
    const node = new URL(String(input.url ?? input)).host;
    state.node = node;
    const closed = () => process.stderr.write(`closed ${state.thread} ${node}\n`);
    process.stderr.write(`streaming ${state.thread} ${node}\n`);
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
          closed();
          controller.close();
          return;
        }
        if (chunk.done) {
          closed();
          controller.close();
          return;
        }
        pending += decoder.decode(chunk.value, { stream: true });
        let end;
        while ((end = pending.indexOf("\n\n")) >= 0) {
          const block = pending.slice(0, end + 2);
          pending = pending.slice(end + 2);
          if (block.includes('"RUN_FINISHED"')) state.finished = true;
          controller.enqueue(encoder.encode(block));
        }
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

async function drive(threadId) {
  const user = { id: "u1", role: "user", content: "go" };
  const state = { thread: threadId, finished: false, status: 0, cut: false, node: "", attempts: 0 };
  live.push(state);
  const errors = [];
  const onRunErrorEvent = ({ event }) => errors.push(event.message);
  let started = false;
  let messages = [user];
  let attempts = 0;
  let resumes = 0;
  while (!state.finished && attempts < 200) {
    attempts++;
    state.attempts = attempts;
    state.status = 0;
    let agent;
    try {
      if (!started) {
        agent = new HttpAgent({ url: pick(), threadId, initialMessages: [user], fetch: trackingFetch(state) });
        await agent.runAgent({}, { onRunErrorEvent });
      } else {
        resumes++;
        agent = new ResumingAgent({
          url: pick(),
          threadId,
          initialMessages: [user],
          headers: { "Last-Event-ID": "0" },
          fetch: trackingFetch(state),
        });
        await agent.connectAgent({}, { onRunErrorEvent });
      }
    } catch {
      // A broken stream, a refused connection or an error status: look
      // at the status below and try again.
    }
    if (state.status === 200) {
      started = true;
      messages = agent.messages;
    } else if (state.status === 404) {
      // No node has recorded the run: the node that took it died first.
      started = false;
    } else if (!started) {
      // The post broke before an answer: the run may have been recorded,
      // and the same message posted again would steer it as a second
      // one, so ask for the thread's stream first (404 if it has none).
      started = true;
    }
    if (!state.finished) await sleep(20 + Math.random() * 30);
  }
  return { thread: threadId, messages, errors, attempts, resumes, finished: state.finished };
}

// A thread that has not finished by then names itself, and where its
// last stream was, before the test's own bound kills the client
// without a word.
const live = [];
setTimeout(() => {
  for (const s of live) {
    if (!s.finished) {
      process.stderr.write(`stalled ${s.thread}: ${s.attempts} attempts, last stream on ${s.node || "none"}, status ${s.status}, cut ${s.cut}\n`);
    }
  }
  process.exit(3);
}, 50_000).unref();

const results = await Promise.all(threads.map(drive));
for (const r of results) process.stdout.write(JSON.stringify(r) + "\n");
