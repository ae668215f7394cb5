// shifting is an MCP server over stdio whose tool list changes mid-call,
// for the tests of runs that go on with the new list: old answers "old
// ran"; shift drops old and itself, adds fresh (each change announced
// with notifications/tools/list_changed), and answers "shifted" a moment
// later, as a call that changes what a server offers does.
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";

const server = new McpServer({ name: "shifting", version: "1.0.0" });
const text = (t) => ({ content: [{ type: "text", text: t }] });

const old = server.registerTool("old", { description: "Answers old ran." }, async () => text("old ran"));
const shift = server.registerTool("shift", { description: "Swaps old for fresh." }, async () => {
  old.remove();
  shift.remove();
  server.registerTool("fresh", { description: "Answers fresh ran." }, async () => text("fresh ran"));
  await new Promise((resolve) => setTimeout(resolve, 200));
  return text("shifted");
});

await server.connect(new StdioServerTransport());
