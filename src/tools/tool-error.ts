// A tool call that failed in a way the model should hear about (bad path, missing text, refused write):
// it becomes `tool.result {ok:false, output: message}`, never a crash of the turn.
export class ToolError extends Error {}
