import { compileMachine } from "@effectively-once/local-cloud/emulators";
import { loadChecker, type Check, type Diagnostic } from "../definition-validator";

/**
 * The project's own verdict on a state machine definition, in place of AWS's ValidateStateMachineDefinition:
 * asl-validator (schema and transitions) and the local interpreter's compiler (JSONata syntax, fields allowed per
 * query language, Retry/Catch shape). AWS checks more (resource ARNs, service limits): see docs/rehearse.md.
 */
export async function definitionCheck(): Promise<Check> {
  const schema = await loadChecker();
  return (definition: unknown): Diagnostic[] => {
    const diagnostics = schema(definition);
    try {
      compileMachine(definition);
    } catch (error) {
      diagnostics.push({ severity: "ERROR", code: "SCHEMA_VALIDATION_FAILED", message: `interpreter: ${(error as Error).message}` });
    }
    return diagnostics;
  };
}
