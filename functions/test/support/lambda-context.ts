/** The package's Lambda-shaped context (the ./harness entry), for the wrapper's own tests. */
export { lambdaContext } from "@effectively-once/local-cloud/harness";
