// baton's chat page: the AI SDK's chat class keeps the conversation and
// talks to `baton serve` over the UI message stream; this file only
// renders it and turns clicks into the chat's own calls. Every text the
// model or a tool wrote is set as textContent, never parsed as HTML.
import {
  AbstractChat,
  DefaultChatTransport,
  lastAssistantMessageIsCompleteWithApprovalResponses,
  lastAssistantMessageIsCompleteWithToolCalls,
} from "./ai.js";

const $ = (id) => document.getElementById(id);

// A token, if the server needs one, comes in the URL's fragment, which
// the browser never sends anywhere. The thread is kept there too, so
// that a reload comes back to it, all its runs shown, and to the run it
// may have in flight, rather than leaving that run waiting on an
// approval nobody sees.
const fragment = new URLSearchParams(location.hash.slice(1));
const token = fragment.get("token");
const reloaded = fragment.has("thread");
const threadId = fragment.get("thread") || "page-" + crypto.randomUUID();
if (!reloaded) {
  fragment.set("thread", threadId);
  history.replaceState(null, "", "#" + fragment);
}

// The chat's state, as AbstractChat wants it; every change re-renders.
const state = {
  messages: [],
  _status: "ready",
  error: undefined,
  get status() {
    return this._status;
  },
  set status(s) {
    this._status = s;
    if (!busy()) {
      // What the ended stream did not show its run taking is pending no
      // more: a run that ended never takes it, and one that waits for an
      // answer shows it where it does.
      steering = [];
      afterStream.splice(0).forEach((f) => f());
    }
    render();
  },
  pushMessage(m) {
    this.messages = this.messages.concat(m);
    render();
  },
  popMessage() {
    this.messages = this.messages.slice(0, -1);
    render();
  },
  replaceMessage(i, m) {
    this.messages = [...this.messages.slice(0, i), m, ...this.messages.slice(i + 1)];
    render();
  },
  snapshot: (v) => structuredClone(v),
};

const auth = token ? { Authorization: "Bearer " + token } : {};

// stopped is set by Stop until the next prompt.
let stopped = false;
// steering holds the texts sent to the run in flight that it has not
// taken yet; afterStream, what waits for the stream in progress to end.
let steering = [];
const afterStream = [];

const chat = new AbstractChat({
  id: threadId,
  state,
  transport: new DefaultChatTransport({
    api: "/?protocol=ai-sdk",
    headers: auth,
  }),
  // An answered approval or question goes back to the server at once,
  // unless the run was stopped: its approved calls then never ran, and
  // sending them again would be refused.
  sendAutomaticallyWhen: (m) =>
    !stopped &&
    (lastAssistantMessageIsCompleteWithApprovalResponses(m) || lastAssistantMessageIsCompleteWithToolCalls(m)),
  onError: showError,
  onFinish: applyCorrection,
  // The run took a message sent while it streamed: the message now shows
  // where the run took it, in its reply (see renderMessage).
  onData: (part) => {
    if (part.type !== "data-baton-steering-applied") return;
    unpend(part.data?.text);
  },
});

$("thread").textContent = threadId;
$("composer").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const text = $("prompt").value.trim();
  if (!text) return;
  $("prompt").value = "";
  state.error = undefined;
  if (busy() || (waiting() && !decided())) {
    steer(text);
    return;
  }
  stopped = false;
  // A message that carries decisions (see decided) steers the run all
  // the same, in a stream of its own: once it ends, the thread is read
  // again, to show the message and the calls once each.
  const steers = waiting();
  chat
    .sendMessage({ text })
    .then(() => steers && showHistory())
    .catch(showError);
});
$("prompt").addEventListener("keydown", (ev) => {
  // An Enter that ends an input method's composition picks a word; it
  // does not send (keyCode 229 is how Safari says so).
  if (ev.isComposing || ev.keyCode === 229) return;
  if (ev.key === "Enter" && !ev.shiftKey) {
    ev.preventDefault();
    $("composer").requestSubmit();
  }
});
$("stop").addEventListener("click", stop);

// stop ends the run on the server, its shell commands included: leaving
// the stream would only detach from a run that goes on. The run's stream
// then ends by itself, with the run.
async function stop() {
  stopped = true;
  try {
    for (let tries = 0; ; tries++) {
      const res = await fetch(threadURL("abort"), {
        method: "POST",
        headers: { "Content-Type": "application/json", ...auth },
      });
      if (res.ok) return;
      if (res.status !== 409) throw new Error((await res.text()) || "stop failed: " + res.status);
      // 409: no run in flight. One that ended on its own is done; a run
      // just sent may not have started yet, so it is asked again.
      if (state.status !== "submitted" || tries >= 20) return;
      await new Promise((r) => setTimeout(r, 100));
    }
  } catch (e) {
    showError(e);
  }
}

// steer hands a message sent while the run streams, or waits for an
// answer, to that run, which takes it at its next model call; the stream
// shows it there and goes on. Until then it shows as pending. A run that
// waits has no stream open: the page follows it again, from its start,
// so that its message shows the message taken where it was, and the call
// it skipped, once each. A run that ended meanwhile has nothing to
// steer: the message then goes as the next prompt, once the stream in
// progress is done.
async function steer(text) {
  steering.push(text);
  render();
  try {
    const res = await fetch(threadURL("steer"), {
      method: "POST",
      headers: { "Content-Type": "application/json", ...auth },
      body: JSON.stringify({ text }),
    });
    if (res.ok) {
      if (!busy()) {
        await follow();
        unpend(text);
        render();
      }
      return;
    }
    unpend(text);
    render();
    if (res.status !== 409) throw new Error((await res.text()) || "steer failed: " + res.status);
    if (busy()) await new Promise((resolve) => afterStream.push(resolve));
    stopped = false;
    chat.sendMessage({ text });
  } catch (e) {
    showError(e);
  }
}

function unpend(text) {
  const i = steering.indexOf(text);
  if (i >= 0) steering.splice(i, 1);
}

// applyCorrection puts the run's message as the session stores it in
// place of the one the stream built, when the stream said it sent parts
// the session does not hold (a model call retried after some text, a
// call the server dropped): the stream cannot take a part back. Without
// the stored message, the thread is read again.
function applyCorrection({ message }) {
  const fix = message?.metadata?.baton;
  if (!fix?.corrected) return;
  const i = state.messages.findIndex((m) => m.id === message.id);
  if (fix.message && i >= 0) {
    state.replaceMessage(i, fix.message);
    return;
  }
  showHistory().catch(showError);
}

// showHistory shows the thread's conversation so far, every run of it,
// and the error its last run faulted with, as that run's stream showed
// it; it returns the phase of its run.
async function showHistory() {
  const res = await fetch(threadURL("messages"), { headers: auth });
  if (!res.ok) throw new Error((await res.text()) || "reading the thread failed: " + res.status);
  const { messages, phase, error } = await res.json();
  if (!busy()) {
    chat.messages = messages;
    if (error) state.error = new Error(error);
  }
  render();
  return phase;
}

// restore shows the thread a reload came back to and follows its run in
// flight, whose replayed stream replaces the run's message (same id). A
// run that ended between the two requests has nothing to replay, so its
// end is read again.
async function restore() {
  const phase = await showHistory();
  if (["idle", "settled", "faulted"].includes(phase)) return;
  await follow();
}

// follow replays the thread's run in flight and follows it, replacing
// the run's message (same id); a run that ended before it is read again.
async function follow() {
  const shown = state.messages;
  await chat.resumeStream();
  if (state.messages === shown) await showHistory();
}

// waiting reports whether the run's stream ended where the run waits for
// the user's answer: a message written then steers the run, rather than
// starting another stream of it whose message would show the message and
// the call it skipped a second time.
function waiting() {
  const m = state.messages.at(-1);
  return m?.role === "assistant" && ["awaiting_approval", "awaiting_human"].includes(m.metadata?.phase);
}

// decided reports whether the user decided on some of the calls the run
// waits on and not yet on all, which the chat sends only together: a
// message written then is posted as the chat's own, which carries those
// decisions to the run before the message steers it.
function decided() {
  return state.messages.at(-1).parts.some((p) => p.state === "approval-responded");
}

function threadURL(route) {
  return "/" + encodeURIComponent(threadId) + "/" + route;
}

function showError(e) {
  state.error = e;
  render();
}

function busy() {
  return state.status === "submitted" || state.status === "streaming";
}

function el(tag, className, text) {
  const e = document.createElement(tag);
  if (className) e.className = className;
  if (text !== undefined) e.textContent = text;
  return e;
}

function render() {
  const box = $("messages");
  const stick = box.scrollTop + box.clientHeight >= box.scrollHeight - 40;
  box.replaceChildren(...state.messages.flatMap(renderMessage), ...steering.map((t) => userMessage(t, "pending")));
  if (stick) box.scrollTop = box.scrollHeight;
  $("status").textContent = state.status;
  $("stop").hidden = !busy();
  const err = $("error");
  err.hidden = !state.error;
  err.textContent = state.error ? String(state.error.message || state.error) : "";
}

// renderMessage shows a message. A message the user sent to the run in
// flight shows where the run took it, as the user's, between the parts
// of the reply before and after.
function renderMessage(m) {
  const divs = [el("div", "message " + m.role)];
  divs[0].dataset.id = m.id;
  for (const part of m.parts) {
    if (part.type === "data-baton-steering-applied" || part.type === "data-baton-follow-up-applied") {
      divs.push(userMessage(part.data?.text ?? ""), el("div", "message " + m.role));
      continue;
    }
    // A message the run was sent but ended (stopped, failed) before it
    // took: shown where the run ended, as not delivered.
    if (part.type === "data-baton-input-dropped") {
      divs.push(userMessage(part.data?.text ?? "", "dropped"), el("div", "message " + m.role));
      continue;
    }
    const p = renderPart(part);
    if (p) divs.at(-1).append(p);
  }
  return divs.filter((d) => d.childElementCount > 0);
}

function userMessage(text, extra) {
  const div = el("div", "message user" + (extra ? " " + extra : ""));
  div.append(el("div", "text", text));
  return div;
}

function renderPart(part) {
  if (part.type === "text") return el("div", "text", part.text);
  if (part.type === "reasoning") return el("div", "reasoning", part.text);
  if (part.type === "dynamic-tool") return renderTool(part, part.toolName);
  if (part.type.startsWith("tool-")) return renderTool(part, part.type.slice(5));
  return null;
}

function renderTool(part, name) {
  const div = el("div", "tool");
  div.dataset.tool = name;
  div.dataset.state = part.state;
  const head = el("div");
  head.append(el("strong", "name", name), el("span", "state", stateText(part.state)));
  div.append(head);
  if (part.input !== undefined) div.append(el("pre", "input", JSON.stringify(part.input, null, 2)));
  switch (part.state) {
    case "output-available":
      div.append(el("pre", "output", typeof part.output === "string" ? part.output : JSON.stringify(part.output, null, 2)));
      break;
    case "output-error":
      div.append(el("pre", "error", part.errorText));
      break;
    case "output-denied":
      div.append(el("div", "error", "denied" + (part.approval?.reason ? ": " + part.approval.reason : "")));
      break;
    case "approval-requested":
      if (!busy()) div.append(approvalForm(part));
      break;
    case "input-available":
      if (name === "ask_human" && !busy()) div.append(questionForm(part, name));
      break;
  }
  return div;
}

function stateText(s) {
  return {
    "input-streaming": "writing the call…",
    "input-available": "running…",
    "approval-requested": "waits for your approval",
    "approval-responded": "answered",
    "output-available": "done",
    "output-error": "failed",
    "output-denied": "denied",
  }[s] || s;
}

function approvalForm(part) {
  const form = el("form", "approval");
  const yes = el("button", "approve", "Approve");
  const no = el("button", "deny", "Deny");
  yes.type = no.type = "button";
  yes.addEventListener("click", () => chat.addToolApprovalResponse({ id: part.approval.id, approved: true }));
  no.addEventListener("click", () => chat.addToolApprovalResponse({ id: part.approval.id, approved: false, reason: "denied on the page" }));
  form.append(yes, no);
  return form;
}

function questionForm(part, name) {
  const form = el("form", "question");
  if (part.input?.question) form.append(el("label", "", part.input.question));
  const input = el("input", "answer");
  input.setAttribute("aria-label", "Answer");
  const send = el("button", "", "Answer");
  send.type = "submit";
  form.append(input, send);
  form.addEventListener("submit", (ev) => {
    ev.preventDefault();
    if (!input.value.trim()) return;
    chat.addToolOutput({ tool: name, toolCallId: part.toolCallId, output: input.value.trim() });
  });
  return form;
}

render();
if (reloaded) restore().catch(showError);
