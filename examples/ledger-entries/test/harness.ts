// The package's function-test helpers (./harness entry), bound to this example's domain and name.
import { functionEnvironment, lambdaContext as contextOf, startLocalDynamoDb, type FunctionTables } from "@effectively-once/local-cloud/harness";
import { LEDGER_DOMAIN } from "../identity";

export { startLocalDynamoDb };

/** The environment the construct gives the function, pointed at the local DynamoDB. */
export const functionEnv = (endpoint: string, tables: FunctionTables) => functionEnvironment(LEDGER_DOMAIN, "ledger", endpoint, tables);

/** A Lambda-shaped context, as the runtime passes it. */
export const lambdaContext = (functionName = "ledger-test") => contextOf(functionName);
