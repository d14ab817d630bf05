/**
 * A gate the test opens: `wait()` parks a caller until `open()`; `reached` resolves when the
 * first caller arrives, so the test knows the slow call is in flight without sleeping.
 */
export function createGate() {
  let open!: () => void;
  let arrive!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  const reached = new Promise<void>((resolve) => (arrive = resolve));
  return {
    reached,
    open: () => open(),
    wait: async () => {
      arrive();
      await opened;
    },
  };
}
