type Stream = NodeJS.WriteStream;

/**
 * Collects what is written to stdout and stderr while `run` executes. Powertools Logger writes
 * INFO lines to stdout and WARN/ERROR lines to stderr; Lambda sends both to the same log stream.
 */
export async function captureOutput<T>(
  run: () => Promise<T>,
): Promise<{ result?: T; error?: unknown; lines: string[] }> {
  const chunks: string[] = [];
  const streams: Stream[] = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  for (const stream of streams) {
    stream.write = ((chunk: string | Uint8Array) => {
      chunks.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
      return true;
    }) as Stream["write"];
  }
  try {
    return { result: await run(), lines: splitLines(chunks) };
  } catch (error) {
    return { error, lines: splitLines(chunks) };
  } finally {
    streams.forEach((stream, index) => {
      stream.write = originals[index] as Stream["write"];
    });
  }
}

function splitLines(chunks: string[]): string[] {
  return chunks
    .join("")
    .split("\n")
    .filter((line) => line.trim() !== "");
}
