/** GitHub's limit on an issue or pull-request comment's body, in characters (its API refuses a longer one). */
export const GITHUB_COMMENT_LIMIT = 65_536;

/**
 * The review as a pull-request comment: whole when it fits `limit`, else cut at the last line that fits, with a
 * closing note naming the review's full length and where the whole review is (the CI job's artifact). Lengths count
 * UTF-16 code units, never fewer than the characters a host counts, so the body always fits.
 */
export function commentBody(markdown: string, options: { readonly limit?: number; readonly artifact?: string } = {}): string {
  const limit = options.limit ?? GITHUB_COMMENT_LIMIT;
  if (markdown.length <= limit) return markdown;
  const where = options.artifact ? `the job's artifact: ${options.artifact}` : "review.md, in the job's artifacts";
  const note = `\n\n---\n**Cut here**: the review is ${markdown.length.toLocaleString("en-US")} characters, more than a comment holds (${limit.toLocaleString("en-US")}). The whole review is in ${where}\n`;
  if (note.length >= limit) throw new RangeError(`--comment-limit ${limit}: leaves no room for the review beside the ${note.length}-character note`);
  const room = markdown.slice(0, limit - note.length);
  const lastLine = room.lastIndexOf("\n");
  return `${lastLine > 0 ? room.slice(0, lastLine) : room}${note}`;
}
