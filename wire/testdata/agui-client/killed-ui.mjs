// Drives threads of one `baton serve` process, one after another, with
// the AI SDK's chat over the UI message stream, while the test kills the
// process with SIGKILL and starts it again on the same address and
// store. A chat whose stream breaks comes back as baton's chat page does
// on a reload: it shows the thread's messages (GET .../messages), then
// resumes the run in flight (the transport's resume request), whose
// replayed stream replaces the run's message. It reports every SSE block
// it takes on stderr ("frame THREAD N", N counting from 1 over all the
// thread's streams) and prints, per thread, the chat's messages, as JSON
// lines.
//
//   node killed-ui.mjs BASE '["thread", ...]'
import { AbstractChat, DefaultChatTransport } from "ai";
import { chatState } from "./chatstate.mjs";

const [base, threadsArg] = process.argv.slice(2);
const threads = JSON.parse(threadsArg);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

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
        } catch (err) {
          controller.error(err);
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
          if (block.includes('"type":"finish"')) state.finished = true;
          controller.enqueue(encoder.encode(block));
          state.frames++;
          process.stderr.write(`frame ${state.thread} ${state.frames}\n`);
        }
      },
    });
    return new Response(body, { status: res.status, headers: res.headers });
  };
}

// history is what the page shows of a thread (see showHistory in the
// page's app.js), or undefined while the server is down.
async function history(threadId) {
  try {
    const res = await fetch(base + encodeURIComponent(threadId) + "/messages");
    if (res.status === 404) return { messages: [], phase: "unknown" };
    if (!res.ok) return undefined;
    return await res.json();
  } catch {
    return undefined;
  }
}

async function drive(threadId) {
  const state = { thread: threadId, finished: false, status: 0, frames: 0 };
  const errors = [];
  const chat = new AbstractChat({
    id: threadId,
    state: chatState(),
    transport: new DefaultChatTransport({ api: base + "?protocol=ai-sdk", fetch: countingFetch(state) }),
    onError: () => {},
  });
  const user = { id: "u1", role: "user", parts: [{ type: "text", text: "look around" }] };
  await chat.sendMessage(user);
  let attempts = 0;
  while (!state.finished && attempts < 400) {
    attempts++;
    await sleep(20);
    const h = await history(threadId);
    if (!h) continue;
    if (h.phase === "unknown" || (h.phase === "idle" && h.messages.length === 0)) {
      // The process died before it recorded the run (baton serve shows
      // a thread it never stored as idle and empty): send it again.
      chat.messages = [];
      await chat.sendMessage(user);
      continue;
    }
    chat.messages = h.messages;
    if (!["idle", "settled", "faulted"].includes(h.phase)) {
      await chat.resumeStream();
      continue;
    }
    state.finished = true;
  }
  return { thread: threadId, messages: chat.messages, errors, attempts, finished: state.finished };
}

for (const t of threads) {
  const r = await drive(t);
  process.stdout.write(JSON.stringify(r) + "\n");
}
