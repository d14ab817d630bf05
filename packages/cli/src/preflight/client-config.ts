/** What every SDK client of the preflight is built with (aws.ts gives each service its own endpoint when asked). */
export interface ClientConfig {
  readonly region: string;
  readonly endpoint?: string;
  readonly credentials?: { accessKeyId: string; secretAccessKey: string };
  readonly maxAttempts: number;
}
