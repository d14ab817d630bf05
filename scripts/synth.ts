// `npm run synth`: synthesizes main.ts's stack in this process, much faster than `cdktf synth`, fully offline.
import { stackConfigFromEnv } from "../src/app/config";
import { synthPaymentsStack } from "../src/stacks/synth";

const started = performance.now();
try {
  const config = stackConfigFromEnv(process.env);
  const { stackFile } = synthPaymentsStack(config);
  console.log(`synthesized stack '${config.stackName}' (${config.region}, prefix '${config.namePrefix}') in ${Math.round(performance.now() - started)} ms`);
  console.log(stackFile);
} catch (error) {
  console.error(`synth failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
