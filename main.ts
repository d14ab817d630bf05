// Entry point of `cdktf synth` / `cdktf deploy`: the app named by PIPELINE_APP (an example under examples/, or a
// folder holding stack.ts; payments by default), configured from the environment.
import { App } from "cdktf";
import { stackConfigFromEnv } from "@effectively-once/pipeline";
import { loadApp } from "@effectively-once/local-cloud/stack";

const pipelineApp = loadApp();
const app = new App();
pipelineApp.addStack(app, stackConfigFromEnv(process.env, pipelineApp.defaults));
app.synth();
