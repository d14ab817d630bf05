import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

/**
 * Runs `action` before each matching command on this client, through the SDK's own middleware
 * stack (the extension point the SDK offers; no prototype patching). `action` may wait on a gate
 * to make the call slow, or throw to make it fail. Returns a function that removes the hook.
 */
export function beforeCommand(
  client: DynamoDBClient,
  commandName: string,
  action: (input: Record<string, unknown>) => Promise<void> | void,
): () => void {
  const name = `test-before-${commandName}-${Math.random().toString(36).slice(2)}`;
  client.middlewareStack.add(
    (next, context) => async (args) => {
      if (context.commandName === commandName) await action(args.input as Record<string, unknown>);
      return next(args);
    },
    { step: "initialize", name },
  );
  return () => {
    client.middlewareStack.remove(name);
  };
}

/** A hook that throws on its first `times` calls, then lets calls through. */
export function failTimes(times: number, makeError: () => Error) {
  let remaining = times;
  return () => {
    if (remaining > 0) {
      remaining -= 1;
      throw makeError();
    }
  };
}
