import { createInterface } from "node:readline/promises";

/** Asks one question on the terminal (stderr, so stdout stays clean for pipes) and resolves with the answer. */
export async function promptLine(question: string): Promise<string> {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return await rl.question(question);
  } finally {
    rl.close();
  }
}
