// Entry point of `cdktf synth` / `cdktf deploy`: one provider, one pipeline, configured from the environment.
import { App } from "cdktf";
import { stackConfigFromEnv } from "./src/app/config";
import { PaymentsPipelineStack } from "./src/stacks/payments-stack";

const app = new App();
new PaymentsPipelineStack(app, stackConfigFromEnv(process.env));
app.synth();
