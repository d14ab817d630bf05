/** The package's Lambda-shaped context (the ./harness entry), for the wrapper's own tests. */
export { lambdaContext } from "../../../packages/local-cloud/src/harness/function-test";
