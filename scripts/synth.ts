// `npm run synth`: synthesizes main.ts's stack in this process, much faster than `cdktf synth`, fully offline.
import { stackConfigOf, synthStack } from "@effectively-once/local-cloud/stack";

const started = performance.now();
try {
  const config = stackConfigOf(process.env);
  const { stackFile } = synthStack(config);
  console.log(`synthesized stack '${config.stackName}' (${config.region}, prefix '${config.namePrefix}') in ${Math.round(performance.now() - started)} ms`);
  console.log(stackFile);
} catch (error) {
  console.error(`synth failed: ${(error as Error).message}`);
  process.exitCode = 1;
}
