// Answers a question the run asks, with the official AG-UI client: the
// run's stream ends where it waits, its last assistant message holding the
// question as a tool call; the client answers with a tool message and runs
// the agent again, which resumes the run and streams the rest.
//
//   node ask.mjs URL THREAD ANSWER        ask, answer, finish
//   node ask.mjs URL THREAD ANSWER ask    only ask; print the question
//   node ask.mjs URL THREAD ANSWER answer only answer the thread's open
//                                         question (e.g. after a restart)
//   node ask.mjs URL THREAD TEXT steer    leave the question open and send
//                                         TEXT as a user message instead
import { HttpAgent } from "@ag-ui/client";

const [url, threadId, answer, mode = "both"] = process.argv.slice(2);

const errors = [];
const onRunErrorEvent = ({ event }) => {
  errors.push(event.message);
};
const user = { id: "u1", role: "user", content: "plan a trip" };
const agent = new HttpAgent({ url, threadId, initialMessages: [user] });
let question;
if (mode !== "answer") {
  await agent.runAgent({}, { onRunErrorEvent });
  question = agent.messages.at(-1)?.toolCalls?.at(-1);
  if (!question) throw new Error("the run asked nothing: " + JSON.stringify(agent.messages));
}
if (mode === "ask") {
  process.stdout.write(JSON.stringify({ messages: agent.messages, errors, question }) + "\n");
  process.exit(0);
}
if (mode === "answer") {
  // A fresh client that knows the question's call from the earlier page.
  question = JSON.parse(process.env.QUESTION);
  agent.addMessage({ id: "a0", role: "assistant", toolCalls: [question] });
}
if (mode === "steer") {
  agent.addMessage({ id: "u2", role: "user", content: answer });
} else {
  agent.addMessage({ id: "t1", role: "tool", toolCallId: question.id, content: answer });
}
await agent.runAgent({}, { onRunErrorEvent });
process.stdout.write(JSON.stringify({ messages: agent.messages, errors, question }) + "\n");
