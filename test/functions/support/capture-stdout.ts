/** Collects what is written to process.stdout while `run` executes (Powertools Logger writes there). */
export async function captureStdout<T>(run: () => Promise<T>): Promise<{ result?: T; error?: unknown; lines: string[] }> {
  const chunks: string[] = [];
  const write = process.stdout.write;
  process.stdout.write = ((chunk: string | Uint8Array) => {
    chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    return true;
  }) as typeof process.stdout.write;
  try {
    const result = await run();
    return { result, lines: splitLines(chunks) };
  } catch (error) {
    return { error, lines: splitLines(chunks) };
  } finally {
    process.stdout.write = write;
  }
}

function splitLines(chunks: string[]): string[] {
  return chunks.join("").split("\n").filter((line) => line.trim() !== "");
}
