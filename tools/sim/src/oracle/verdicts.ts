/** The model's words (oracle/model.ts, oracle/protocol.ts): what a body's content decides, and a broken promise. A leaf. */

export type Verdict =
  | { readonly kind: "refused"; readonly why: string }
  | { readonly kind: "invalid"; readonly why: string }
  /** The pipe's filter drops it before the state machine sees it. */
  | { readonly kind: "filtered"; readonly why: string }
  | { readonly kind: "valid"; readonly key: string; readonly payload: string; readonly amount: number; readonly currency: string };

export interface Violation {
  readonly message?: number;
  readonly key?: string;
  readonly what: string;
}
